import { openFileJournal } from './file-journal.js';
import { MetaStore } from './meta-store.js';

/** `META_STORE`: `memory` (default), or `file:<path>` (survives restarts). */
export async function openMetaStore(setting: string, onWarning: (message: string, err?: unknown) => void): Promise<MetaStore> {
  if (!setting.startsWith('file:')) return new MetaStore();
  const path = setting.slice('file:'.length);
  const opened = await openFileJournal(path);
  if (opened.skipped > 0) onWarning(`META_STORE ${path}: ${opened.skipped} damaged lines skipped; the file was rewritten without them`);
  return new MetaStore(opened.entries, opened.journal, (err) => onWarning(`META_STORE ${path}: a change could not be written`, err));
}
