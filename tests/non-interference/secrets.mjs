// The two pages' secrets: every one differs between A and B (in content and in length), while
// (issue 40) they also differ in text hidden inside a label by each hiding technique of the
// visibility rule, in the values of fields no one sees, and in the path of a form's action;
// what a careful tool may reveal about them is the same: each is filled, and each has the same
// validity (both typed passwords are too short for minlength 12; both cards match the pattern).
// The tax id field, which only the app's \`sensitive\` option makes a secret, holds the same value
// on both pages: the tools made without options may show it (tests/web_tools/leaks.rs covers
// \`sensitive\`).
export const PAGES = {
  a: {
    session: "ni-a",
    token: "tok-a",
    query: "reset=r-aaaa1111&user=ada",
    fragment: "tok=alpha",
    secrets: {
      html: "A1-html",
      meta: "A2b3C4d5e6F7",
      userToken: "u-a11",
      searchCsrf: "a9",
      card: "4111 1111 1111 1111",
      otp: "123456",
      newPassword: "Tr0ub4dor",
      csrf: "a3f9c2e1d0b8",
      cart: "cart-a",
      storedPassword: "opensesame",
      nonce: "n-a",
      side: "side-a",
      newsletterToken: "nl-a",
      newsletterCsrf: "a",
      vault: "alpha",
      vaultValue: "vault-value-a",
      hiddenText: "hid-alpha",
      unseenValue: "unseen-a",
      resetToken: "RST-a1",
    },
    typed: { password: "hunter2", cvc: "123" },
  },
  b: {
    session: "ni-b",
    token: "tok-b",
    query: "reset=r-bbbb22223333&user=bob-the-builder",
    fragment: "tok=bravo-longer",
    secrets: {
      html: "Bz-html-longer",
      meta: "Z9y8",
      userToken: "v-b2222",
      searchCsrf: "b77",
      card: "5500 0000 0000 0004",
      otp: "987654",
      newPassword: "correcthorse",
      csrf: "b7c1",
      cart: "cart-bb-with-items",
      storedPassword: "swordfish!",
      nonce: "n-bbbbbb",
      side: "side-b-longer",
      newsletterToken: "ql-b",
      newsletterCsrf: "bbbbbbbb",
      vault: "bravo",
      vaultValue: "vault-value-bbbbbb",
      hiddenText: "hid-bravo-longer",
      unseenValue: "unseen-bbbbbbbb",
      resetToken: "RST-b2c3d4e5",
    },
    typed: { password: "letmein99", cvc: "9876" },
  },
};

/** Every secret string of a page, to check no answer carries one (on top of A = B). */
export function secretStrings(page) {
  const all = [page.query, page.fragment, ...Object.values(page.secrets), ...Object.values(page.typed)];
  return all.filter((s) => s.length >= 4);
}
