import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { publicCtxOf } from "../../platform/http/context.js";
import { AppError, BadRequestError } from "../../platform/http/errors.js";
import type { AuthService } from "../identity/index.js";
import { emailsOfUsers } from "../identity/index.js";
import { type ClientView, type Lang, pageCsp, pickLang, renderConsent, renderSignIn } from "./page.js";
import { asIssuer, INTERACTION_PATH, type TenantOAuth } from "./provider.js";
import * as repo from "./repository.js";
import { consent } from "./service.js";

export interface InteractionOptions {
  server: (request: FastifyRequest) => Promise<TenantOAuth>;
  auth: AuthService;
  scopes: readonly string[];
  /** The key of the forms' CSRF tokens (derived from JWT_SECRET). */
  csrfKey: Buffer;
}

type Form = Record<string, string | string[]>;

const FORM_LIMIT = 16 * 1024;

/** application/x-www-form-urlencoded, repeated names (scope) as arrays. */
function parseForm(body: string): Form {
  const form: Form = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const prior = form[name];
    form[name] = prior === undefined ? value : [prior, value].flat();
  }
  return form;
}

const one = (form: Form, name: string) => {
  const value = form[name];
  return typeof value === "string" ? value : undefined;
};

const uidParams = z.object({
  uid: z.string().regex(/^[\w-]{10,64}$/, { message: "is not an interaction id" }),
});

function csrfToken(key: Buffer, uid: string) {
  return createHmac("sha256", key).update(`interaction:${uid}`).digest("base64url");
}

function csrfValid(key: Buffer, uid: string, sent: string | undefined) {
  const expected = Buffer.from(csrfToken(key, uid));
  const given = Buffer.from(sent ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The sign-in and consent steps oidc-provider hands over to (its `interactions.url`): first the
 * user signs in (the login service's checks), then picks the company and the areas. Both are
 * server-rendered forms; the interaction cookie oidc-provider set binds them to the browser that
 * started the authorization, and an HMAC of the interaction id guards each post (CSRF).
 */
export function interactionRoutes(app: FastifyInstance, options: InteractionOptions) {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_LIMIT },
    (_request, body, done) => done(null, parseForm(body as string)),
  );

  async function details(request: FastifyRequest, reply: FastifyReply, uid: string) {
    const server = await options.server(request);
    asIssuer(request.raw, server.issuer);
    let interaction: Awaited<ReturnType<TenantOAuth["provider"]["interactionDetails"]>>;
    try {
      interaction = await server.provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw new AppError(
        400,
        "This sign-in has expired or was opened in another browser: start again from the assistant",
      );
    }
    if (interaction.uid !== uid)
      throw new AppError(
        400,
        "This sign-in does not match the one in progress: start again from the assistant",
      );
    const client = await server.provider.Client.find(interaction.params.client_id);
    if (!client) throw new AppError(400, "The assistant's registration is no longer available: start again");
    const redirect = new URL(String(interaction.params.redirect_uri));
    const view: ClientView = {
      name: client.clientName ?? new URL(client.clientId).host,
      clientId: client.clientId,
      redirectHost: redirect.host,
    };
    return { server, interaction, view, redirectOrigin: redirect.origin };
  }

  function offered(requested: unknown): string[] {
    const asked = String(requested ?? "")
      .split(" ")
      .filter((s) => options.scopes.includes(s));
    return asked.length ? [...new Set(asked)] : [...options.scopes];
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    uid: string,
    lang: Lang,
    state: { status?: number; error?: string; email?: string } = {},
  ) {
    const { interaction, view, redirectOrigin } = await details(request, reply, uid);
    const action = `${INTERACTION_PATH}/${uid}?lang=${lang}`;
    const csrf = csrfToken(options.csrfKey, uid);
    reply.header("content-security-policy", pageCsp(redirectOrigin)).type("text/html; charset=utf-8");
    reply.code(state.status ?? 200);
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name === "login" || !accountId) {
      return renderSignIn({ lang, action, csrf, client: view, email: state.email, error: state.error });
    }
    const db = request.tenant.handle.db;
    const companies = await repo.companiesForUser(db, accountId);
    const email = (await emailsOfUsers(db, [accountId])).get(accountId);
    return renderConsent({
      lang,
      action,
      csrf,
      client: view,
      email: email ?? "",
      companies,
      allowAll: !(companies[0]?.restricted ?? false),
      scopes: offered(interaction.params.scope),
      error: state.error,
    });
  }

  const page = { config: { auth: "public" as const }, schema: { hide: true, params: uidParams } };

  app.get(`${INTERACTION_PATH}/:uid`, page, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    return render(request, reply, uid, pickLang(request.query, request.headers["accept-language"]));
  });

  app.post(`${INTERACTION_PATH}/:uid`, page, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const lang = pickLang(request.query, request.headers["accept-language"]);
    const form = (request.body ?? {}) as Form;
    if (!csrfValid(options.csrfKey, uid, one(form, "csrf"))) {
      throw new AppError(403, "The form's CSRF token is missing or wrong: reload the page and try again");
    }
    const { server, interaction, view } = await details(request, reply, uid);
    const client = { ip: request.ip, userAgent: request.headers["user-agent"] ?? null };
    const redirect = async (result: Record<string, unknown>, merge = true) =>
      reply.redirect(
        await server.provider.interactionResult(request.raw, reply.raw, result, {
          mergeWithLastSubmission: merge,
        }),
        303,
      );

    if (one(form, "step") === "login") {
      const email = one(form, "email") ?? "";
      try {
        const accountId = await options.auth.verifyLogin(
          publicCtxOf(request),
          email,
          one(form, "password") ?? "",
          client,
        );
        return redirect({ login: { accountId } }, false);
      } catch (err) {
        if (!(err instanceof AppError) || (err.status !== 401 && err.status !== 429)) throw err;
        for (const [name, value] of Object.entries(err.options.headers ?? {})) reply.header(name, value);
        return render(request, reply, uid, lang, { status: err.status, error: err.message, email });
      }
    }

    const accountId = interaction.session?.accountId;
    if (one(form, "step") !== "consent" || !accountId || interaction.prompt.name === "login") {
      throw new AppError(400, "Sign in first", {
        errors: [{ path: "step", message: "is not the step in progress" }],
      });
    }
    if (one(form, "decision") !== "allow") {
      return redirect({ error: "access_denied", error_description: "The user denied access" }, false);
    }
    let grantId: string;
    try {
      grantId = await consent(
        request.tenant.handle.db,
        server,
        {
          userId: accountId,
          clientId: view.clientId,
          clientName: view.name,
          redirectHost: view.redirectHost,
          company: one(form, "company") ?? "",
          scopes: [form.scope ?? []].flat(),
          oidcScopes: [interaction.prompt.details.missingOIDCScope ?? []].flat() as string[],
          ip: request.ip,
        },
        offered(interaction.params.scope),
      );
    } catch (err) {
      if (!(err instanceof BadRequestError)) throw err;
      const detail = (err.options.errors ?? []).map((e) => `${e.path}: ${e.message}`).join("; ");
      return render(request, reply, uid, lang, { status: 400, error: `${err.message} (${detail})` });
    }
    return redirect({ consent: { grantId } });
  });
}
