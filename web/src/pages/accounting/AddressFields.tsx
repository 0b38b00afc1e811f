import { SimpleGrid, TextInput } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";
import { useTranslation } from "react-i18next";
import type { AddressValues } from "../../forms/contacts";

/** The postal address fields of a contact's or a company's form. */
export function AddressFields({
  inputProps,
}: {
  inputProps: (field: keyof AddressValues) => GetInputPropsReturnType;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={t("records.address")} {...inputProps("address")} />
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <TextInput label={t("records.postalCode")} {...inputProps("postal_code")} />
        <TextInput label={t("records.city")} {...inputProps("city")} />
        <TextInput label={t("records.province")} {...inputProps("province")} />
        <TextInput label={t("records.country")} maxLength={2} {...inputProps("country")} />
      </SimpleGrid>
    </>
  );
}
