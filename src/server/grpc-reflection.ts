import { create, createRegistry, type DescFile, type DescService, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import * as v1 from '../gen/grpc/reflection/v1/reflection_pb.js';
import * as v1alpha from '../gen/grpc/reflection/v1alpha/reflection_pb.js';

type Request = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

/** Every file `roots` need, each once, dependencies before what imports them. */
function filesOf(roots: readonly DescFile[]): DescFile[] {
  const seen = new Set<string>();
  const out: DescFile[] = [];
  const visit = (file: DescFile) => {
    if (seen.has(file.name)) return;
    seen.add(file.name);
    for (const dep of file.dependencies) visit(dep);
    out.push(file);
  };
  for (const root of roots) visit(root);
  return out;
}

/**
 * gRPC server reflection, v1 and v1alpha (grpcurl asks for either): the service list, and the
 * descriptor files by name or by a symbol they declare, with their dependencies.
 */
export function reflectionRoutes(served: readonly DescService[]) {
  const all = [...served, v1.ServerReflection, v1alpha.ServerReflection];
  const files = filesOf(all.map((s) => s.file));
  const registry = createRegistry(...files);
  const byName = new Map(files.map((f) => [f.proto.name, f]));
  // the file first, then what it needs (grpcurl may also ask for those by name)
  const bytesOf = (file: DescFile) =>
    filesOf([file])
      .reverse()
      .map((f) => toBinary(FileDescriptorProtoSchema, f.proto));
  const fileOfSymbol = (symbol: string): DescFile | undefined => {
    const found = registry.get(symbol) ?? registry.get(symbol.slice(0, symbol.lastIndexOf('.'))); // a method: its service
    return found?.file;
  };
  const answer = (req: Request) => {
    const r = req.messageRequest;
    switch (r.case) {
      case 'listServices':
        return { case: 'listServicesResponse' as const, value: { service: all.map((s) => ({ name: s.typeName })) } };
      case 'fileByFilename':
      case 'fileContainingSymbol': {
        const file = r.case === 'fileByFilename' ? byName.get(r.value) : fileOfSymbol(r.value);
        if (file) return { case: 'fileDescriptorResponse' as const, value: { fileDescriptorProto: bytesOf(file) } };
        return { case: 'errorResponse' as const, value: { errorCode: 5, errorMessage: `${r.value} not found` } };
      }
      case 'allExtensionNumbersOfType':
        return { case: 'allExtensionNumbersResponse' as const, value: { baseTypeName: r.value, extensionNumber: [] } };
      default:
        return { case: 'errorResponse' as const, value: { errorCode: 12, errorMessage: 'not implemented' } };
    }
  };
  return (router: ConnectRouter) => {
    router.service(v1.ServerReflection, {
      async *serverReflectionInfo(requests) {
        for await (const req of requests)
          yield create(v1.ServerReflectionResponseSchema, { validHost: req.host, originalRequest: req, messageResponse: answer(req) });
      },
    });
    router.service(v1alpha.ServerReflection, {
      async *serverReflectionInfo(requests) {
        for await (const req of requests)
          yield create(v1alpha.ServerReflectionResponseSchema, { validHost: req.host, originalRequest: req, messageResponse: answer(req) });
      },
    });
  };
}
