/** A v1 base URL split into what undici dials (the origin) and the path every v1 route sits under. */
export interface V1Origin {
  origin: string;
  basePath: string;
}

export function v1Origin(baseUrl: string): V1Origin {
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}
