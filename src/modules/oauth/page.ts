import { createHash } from "node:crypto";

/**
 * The sign-in and consent pages of the MCP authorization server: plain HTML forms that work without
 * JavaScript, in Spanish and English, under a CSP allowing only their own inline stylesheet (by
 * hash) and form posts to this server and, after it, the client's redirect.
 */
export type Lang = "es" | "en";

const TEXT = {
  es: {
    signInTitle: "Inicia sesión para conectar un asistente",
    consentTitle: "Conceder acceso a un asistente",
    intro: (client: string, host: string) =>
      `${client} quiere leer datos de Cuadra en tu nombre. Tras aceptar, volverás a ${host}.`,
    email: "Correo electrónico",
    password: "Contraseña",
    signIn: "Iniciar sesión",
    company: "Empresa",
    allCompanies: "Todas las empresas",
    areas: "Qué puede leer el asistente",
    allow: "Permitir acceso de solo lectura",
    deny: "Denegar",
    signedInAs: (email: string) => `Sesión iniciada como ${email}.`,
    errorTitle: "No se pudo completar la autorización",
    client: "Aplicación",
    redirect: "Redirige a",
  },
  en: {
    signInTitle: "Sign in to connect an assistant",
    consentTitle: "Give an assistant access",
    intro: (client: string, host: string) =>
      `${client} wants to read Cuadra data on your behalf. After you accept, you return to ${host}.`,
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    company: "Company",
    allCompanies: "All companies",
    areas: "What the assistant may read",
    allow: "Allow read-only access",
    deny: "Deny",
    signedInAs: (email: string) => `Signed in as ${email}.`,
    errorTitle: "The authorization could not be completed",
    client: "Application",
    redirect: "Redirects to",
  },
} as const;

const SCOPE_LABELS: Record<string, { es: string; en: string }> = {
  mcp: { es: "Todo (todas las áreas)", en: "Everything (every area)" },
  "mcp:contacts": { es: "Clientes y proveedores", en: "Customers and suppliers" },
  "mcp:products": { es: "Productos", en: "Products" },
  "mcp:accounting": { es: "Contabilidad", en: "Accounting" },
  "mcp:invoices": { es: "Facturas emitidas", en: "Sales invoices" },
  "mcp:purchase_invoices": { es: "Facturas recibidas", en: "Purchase invoices" },
  "mcp:tax": { es: "Impuestos (IVA)", en: "Taxes (VAT)" },
  "mcp:treasury": { es: "Tesorería", en: "Treasury" },
  "mcp:banking": { es: "Movimientos bancarios", en: "Bank movements" },
  "mcp:projects": { es: "Presupuestos y certificaciones", en: "Budgets and certifications" },
};

const CSS = `body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1f2933;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input[type=email],input[type=password],select{width:100%;padding:.5rem;box-sizing:border-box;border:1px solid #9aa5b1;border-radius:4px}
fieldset{border:1px solid #cbd2d9;border-radius:4px;margin:1rem 0}fieldset label{font-weight:400;display:flex;gap:.5rem;margin:.3rem 0}
button{margin-top:1.2rem;padding:.6rem 1rem;border:0;border-radius:4px;background:#0b5cad;color:#fff;font-size:1rem}
button.secondary{background:#e4e7eb;color:#1f2933;margin-left:.5rem}.error{color:#b00020;font-weight:600}
dl{font-size:.9rem}dt{font-weight:600}dd{margin:0 0 .5rem;word-break:break-all}`;

const CSS_HASH = `'sha256-${createHash("sha256").update(CSS).digest("base64")}'`;

/** The page's CSP: its stylesheet, posts to this server and (after the redirect) the client. */
export function pageCsp(redirectOrigin?: string): string {
  return [
    "default-src 'none'",
    `style-src ${CSS_HASH}`,
    `form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}

export function pickLang(query: unknown, acceptLanguage: string | undefined): Lang {
  const asked = (query as { lang?: unknown } | undefined)?.lang;
  if (asked === "es" || asked === "en") return asked;
  const first = (acceptLanguage ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("en") ? "en" : "es";
}

function layout(lang: Lang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Cuadra</title><style>${CSS}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export interface ClientView {
  name: string;
  clientId: string;
  redirectHost: string;
}

function clientBlock(lang: Lang, client: ClientView): string {
  const t = TEXT[lang];
  return `<p>${escapeHtml(t.intro(client.name, client.redirectHost))}</p><dl><dt>${t.client}</dt><dd>${escapeHtml(client.name)} (${escapeHtml(client.clientId)})</dd><dt>${t.redirect}</dt><dd>${escapeHtml(client.redirectHost)}</dd></dl>`;
}

const errorLine = (error?: string) =>
  error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : "";

export function renderSignIn(o: {
  lang: Lang;
  action: string;
  csrf: string;
  client: ClientView;
  email?: string;
  error?: string;
}): string {
  const t = TEXT[o.lang];
  const described = o.error ? ' aria-describedby="form-error"' : "";
  return layout(
    o.lang,
    t.signInTitle,
    `${clientBlock(o.lang, o.client)}${errorLine(o.error)}<form method="post" action="${escapeHtml(o.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(o.csrf)}"><input type="hidden" name="step" value="login">
<label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(o.email ?? "")}"${described}>
<label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required${described}>
<button type="submit">${t.signIn}</button></form>`,
  );
}

export function renderConsent(o: {
  lang: Lang;
  action: string;
  csrf: string;
  client: ClientView;
  email: string;
  companies: { id: string; name: string }[];
  allowAll: boolean;
  scopes: readonly string[];
  error?: string;
}): string {
  const t = TEXT[o.lang];
  const options = [
    ...(o.allowAll ? [`<option value="all">${t.allCompanies}</option>`] : []),
    ...o.companies.map((c) => `<option value="${escapeHtml(c.id)}">${escapeHtml(c.name)}</option>`),
  ].join("");
  const boxes = o.scopes
    .map((scope, i) => {
      const label = SCOPE_LABELS[scope]?.[o.lang] ?? scope;
      return `<label for="scope-${i}"><input id="scope-${i}" type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> ${escapeHtml(label)} <code>${escapeHtml(scope)}</code></label>`;
    })
    .join("");
  return layout(
    o.lang,
    t.consentTitle,
    `<p>${escapeHtml(t.signedInAs(o.email))}</p>${clientBlock(o.lang, o.client)}${errorLine(o.error)}<form method="post" action="${escapeHtml(o.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(o.csrf)}"><input type="hidden" name="step" value="consent">
<label for="company">${t.company}</label><select id="company" name="company">${options}</select>
<fieldset><legend>${t.areas}</legend>${boxes}</fieldset>
<button type="submit" name="decision" value="allow">${t.allow}</button><button type="submit" name="decision" value="deny" class="secondary">${t.deny}</button></form>`,
  );
}

/** oidc-provider's error page (an authorization request that cannot be redirected back). */
export function renderErrorPage(out: Record<string, string>): string {
  const detail = [out.error, out.error_description].filter(Boolean).join(": ");
  return layout("en", TEXT.en.errorTitle, `<p class="error" role="alert">${escapeHtml(detail)}</p>`);
}
