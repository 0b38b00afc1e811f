import createClient from "openapi-fetch";
import type { paths as ApiPaths } from "./generated/api";
import type { paths as V1Paths } from "./generated/api-v1";
import { ApiError, isProblem } from "./problem";
import { createSessionFetch } from "./session";

const sessionFetch = createSessionFetch();

/** Project cost management: /api/v1. */
export const v1 = createClient<V1Paths>({ fetch: sessionFetch });
/** Enterprise accounting: /api. */
export const api = createClient<ApiPaths>({ fetch: sessionFetch });

/** The data of an openapi-fetch answer, or an ApiError carrying its problem body. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const body = result.error;
  throw new ApiError(
    result.response.status,
    isProblem(body) ? body : { title: result.response.statusText, status: result.response.status },
  );
}

/**
 * A binary answer (an image, a PDF) fetched through the session (Bearer, refresh once): the response
 * when it is 2xx, else an ApiError with its problem body.
 */
export async function fetchBinary(url: string): Promise<Response> {
  const res = await sessionFetch(url);
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    throw new ApiError(res.status, isProblem(body) ? body : { title: res.statusText });
  }
  return res;
}

/** A binary answer (PDF, BC3) through the same session, saved with its server-given file name. */
export async function download(url: string, fallbackName: string): Promise<void> {
  const res = await fetchBinary(url);
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** Upload with progress (fetch has none): XMLHttpRequest with the session's Bearer and refresh. */
export function upload(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  method: "POST" | "PUT" = "POST",
): Promise<{ status: number; body: unknown }> {
  const send = (token: string | null) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = xhr.responseText;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new Error("network error"));
      xhr.send(form);
    });
  return send(localStorage.getItem("cuadra.access_token")).then(async (first) => {
    if (first.status !== 401) return first;
    // Let the shared session logic renew (or end) the session, then send once more.
    const probe = await sessionFetch("/api/v1/users/me");
    if (!probe.ok) return first;
    return send(localStorage.getItem("cuadra.access_token"));
  });
}
