/** The part of oidc-provider 9.x (which ships no types) that Cuadra uses. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Interaction {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown> & {
      client_id: string;
      redirect_uri?: string;
      scope?: string;
      resource?: string | string[];
    };
    session?: { accountId?: string };
    grantId?: string;
    returnTo: string;
  }

  export interface ClientModel {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    metadata(): Record<string, unknown>;
  }

  export interface GrantModel {
    jti: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface AccessTokenModel {
    jti: string;
    aud?: string | string[];
    scope?: string;
    grantId: string;
    clientId: string;
    accountId: string;
    exp: number;
    isExpired: boolean;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Client: { find(id: string): Promise<ClientModel | undefined> };
    Grant: new (init: {
      accountId: string;
      clientId: string;
    }) => GrantModel;
    AccessToken: { find(token: string): Promise<AccessTokenModel | undefined> };
  }

  export const errors: {
    InvalidTarget: new (detail?: string) => Error;
    InvalidClientMetadata: new (detail?: string) => Error;
    AccessDenied: new (detail?: string) => Error;
  };

  export default Provider;
}
