import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
} from "@mantine/core";

/** Dense and sober: small controls, compact tables, one accent colour. */
export const theme = createTheme({
  primaryColor: "indigo",
  // Users who ask their system for less motion get no transitions (and axe never meets a half-faded dialog).
  respectReducedMotion: true,
  primaryShade: 9,
  defaultRadius: "sm",
  fontFamily: "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, monospace",
  headings: { fontWeight: "600", sizes: { h1: { fontSize: "1.4rem" }, h2: { fontSize: "1.15rem" } } },
  // Light badges and buttons: the text a shade darker than Mantine's so it passes WCAG AA on its tint.
  variantColorResolver: (input) => {
    const colors = defaultVariantColorsResolver(input);
    if (input.variant !== "light") return colors;
    const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
    if (!parsed.isThemeColor) return colors;
    return { ...colors, color: `color-mix(in srgb, var(--mantine-color-${parsed.color}-9) 60%, black)` };
  },
  components: {
    Button: { defaultProps: { size: "xs" } },
    TextInput: { defaultProps: { size: "xs" } },
    PasswordInput: { defaultProps: { size: "xs" } },
    NumberInput: { defaultProps: { size: "xs" } },
    Select: { defaultProps: { size: "xs" } },
    Table: { defaultProps: { fz: "xs", verticalSpacing: 6, horizontalSpacing: "sm" } },
    // A badge (a state, a contact type) is short and must be read whole: it widens its table column
    // instead of shrinking to "CLIENTE Y PROVEE…".
    Badge: {
      defaultProps: { size: "sm", variant: "light", radius: "sm" },
      styles: { label: { overflow: "visible" } },
    },
    // A titled notification's text (the problem's detail) is Mantine's gray 6, 3.32:1 on white: the
    // dimmed colour instead (gray 7 in the light scheme, styles.css), which passes WCAG AA.
    Notification: { styles: { description: { color: "var(--mantine-color-dimmed)" } } },
  },
});

/**
 * Error text (field errors, in dialogs too) in red 9 in the light scheme: Mantine's red 6 on white
 * measures 3.28:1, below WCAG AA's 4.5:1 for small text; red 9 (#c92a2a) measures 5.4:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-error": "var(--mantine-color-red-9)" },
  dark: {},
});
