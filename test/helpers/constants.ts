/** The administrator every test database starts with. */
export const TEST_ADMIN = { email: "admin@example.com", password: "admin-password-1" };
export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-0123456789";
