import { notifications } from "@mantine/notifications";
import { ApiError, problemMessage } from "../api/problem";
import i18n from "../i18n";

export function notifySuccess(message: string) {
  notifications.show({
    color: "teal",
    message,
    autoClose: 3000,
    closeButtonProps: { "aria-label": i18n.t("common.close") },
  });
}

/** A failed action: the problem's detail, titled as a permission refusal when it is a 403. */
export function notifyError(error: unknown) {
  const forbidden = error instanceof ApiError && error.status === 403;
  notifications.show({
    color: forbidden ? "orange" : "red",
    title: forbidden ? i18n.t("common.forbidden") : i18n.t("common.error"),
    message: problemMessage(error),
    autoClose: 8000,
    closeButtonProps: { "aria-label": i18n.t("common.close") },
  });
}
