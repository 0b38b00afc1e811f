import { readFileSync } from "node:fs";
import { request } from "node:https";
import type { VerifactuSubmissionConfig } from "../../../config.js";

/** A POST that got no usable HTTP answer: refused, reset, timed out, or an HTTP error status. */
export class TransportError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type SoapPost = (xml: string) => Promise<{ status: number; body: string }>;

/**
 * POSTs a SOAP message to the configured endpoint over TLS with the client certificate (PKCS#12 and
 * its password), trusting the extra CA when one is configured, within the request timeout.
 * Answers with status and body for 200 and for a 500 carrying a SOAP Fault; any other outcome is
 * a TransportError (the batch is retried).
 */
export function httpsSoapPost(config: VerifactuSubmissionConfig): SoapPost {
  const pfx = config.certPath ? readFileSync(config.certPath) : undefined;
  const ca = config.caPath ? readFileSync(config.caPath) : undefined;
  const url = new URL(config.endpoint);
  return (xml) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(xml, "utf8");
      const req = request(
        url,
        {
          method: "POST",
          pfx,
          passphrase: config.certPassword,
          ca,
          headers: {
            "content-type": "text/xml; charset=utf-8",
            "content-length": payload.length,
            soapaction: '""',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", (err) => reject(new TransportError("response_error", err.message)));
          res.on("end", () => {
            const body = Buffer.concat(chunks).toString("utf8");
            const status = res.statusCode ?? 0;
            if (status === 200 || (status === 500 && /Fault/.test(body))) resolve({ status, body });
            else reject(new TransportError(`http_${status}`, `the endpoint answered HTTP ${status}`));
          });
        },
      );
      req.setTimeout(config.requestTimeoutSeconds * 1000, () =>
        req.destroy(new TransportError("timeout", `no answer within ${config.requestTimeoutSeconds} s`)),
      );
      req.on("error", (err) =>
        reject(
          err instanceof TransportError
            ? err
            : new TransportError((err as NodeJS.ErrnoException).code ?? "network", err.message),
        ),
      );
      req.end(payload);
    });
}
