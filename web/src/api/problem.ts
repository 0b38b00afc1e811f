/** RFC 9457 problem details as the server answers every error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { path: string; message: string }[];
  [key: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = "ApiError";
  }
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && ("detail" in value || "title" in value);
}

/** The message to show for a failed call: the problem's detail and its field errors. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.problem.errors?.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)) ?? [];
    return [error.message, ...fields].join("\n");
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
