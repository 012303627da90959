import type { z } from 'zod/mini';
import type { Clock } from './clock.js';
import { ServiceError } from './errors.js';
import { type CallContext, errorText, type Party, type Request, request } from './request.js';
import { issuePath } from './validation.js';

export type { CallContext } from './request.js';

/** The answers' schemas, loaded with the first answer: zod is not needed before the first request. */
export type Schemas = typeof import('./schemas.js');

/** A request to the service; a read is a GET, anything else a POST. */
export interface Operation<T> extends Pick<Request, 'name' | 'rule'> {
  /** Below the base URL, ids already encoded. */
  path: string;
  body?: unknown;
  schema: (schemas: Schemas) => z.ZodMiniType<T>;
  notFound: string;
}

const SERVICE: Party = {
  name: 'the service',
  errorField: 'error',
  redirect: {
    otherOrigin: (origin) =>
      `not base-url's origin ${origin}: the API key goes to that origin only, so the redirect was not followed. If the service has moved, set base-url to its new address.`,
    notARead:
      "a request that may start or change a run is never sent again to a redirect's target (it could start a second run, or one elsewhere). Set base-url to the service's address.",
  },
  advice: (status, { notFound }) => {
    if (status === 401 || status === 403) {
      return "The API key is wrong or lacks permission: create one in the API key settings of the service's dashboard (developer or owner permission is needed to see them) and pass it through a secret.";
    }
    return status === 404 ? `${notFound}.` : undefined;
  },
  failed: (message, status) => new ServiceError(message, status),
};

export class ServiceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly requestTimeoutMs: number,
    private readonly clock: Clock,
  ) {}

  async call<T>(operation: Operation<T>, context: CallContext): Promise<T> {
    const body = operation.body === undefined ? undefined : JSON.stringify(operation.body);
    const headers = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const method = operation.rule === 'read' ? 'GET' : 'POST';
    const answer = await request(
      SERVICE,
      { ...operation, method, url: `${this.baseUrl}${operation.path}`, headers, body },
      { ...context, clock: this.clock, requestTimeoutMs: context.requestTimeoutMs ?? this.requestTimeoutMs },
    );
    const schemas = await import('./schemas.js');
    // A start answered with a success status was most likely acted on, even if its body is unreadable.
    const accepted =
      operation.rule === 'start'
        ? ' The service accepted the request, so a run was probably started: check the runs on the service before re-running this job.'
        : '';
    let json: unknown;
    try {
      // An empty body parses to undefined, which the schema then accepts or names.
      json = answer.body.trim() === '' ? undefined : JSON.parse(answer.body);
    } catch {
      const contentType = answer.headers.get('content-type');
      const type = contentType ? `, content-type ${contentType}` : '';
      throw new ServiceError(
        `Could not ${operation.name}: the response is not JSON (HTTP ${answer.status}${type})${errorText(answer.body)}${accepted}`,
      );
    }
    // An error names the field that breaks the interface.
    const where = (path: readonly PropertyKey[]) => `field '${issuePath('', path)}'`;
    const result = await schemas.validate(operation.schema(schemas), json, { where, max: 3 });
    if ('data' in result) return result.data;
    throw new ServiceError(
      `Could not ${operation.name}: the response does not match the service interface: ${result.problems}${accepted}`,
    );
  }
}
