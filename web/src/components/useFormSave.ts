import type { UseFormReturnType } from "@mantine/form";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../api/problem";
import { problemFieldErrors } from "../forms/masters";
import { notifyError } from "./notify";

/**
 * A form's save request: the server's field errors (a 400's `errors`) shown under the form's own
 * fields, and every failure notified with the problem's detail.
 */
export function useFormSave<V, R>(
  form: UseFormReturnType<V>,
  save: (values: V) => Promise<R>,
  onSaved: (saved: R) => void,
) {
  return useMutation({
    mutationFn: save,
    onSuccess: onSaved,
    onError: (error) => {
      if (error instanceof ApiError)
        form.setErrors(problemFieldErrors(error.problem.errors, Object.keys(form.values as object)));
      notifyError(error);
    },
  });
}
