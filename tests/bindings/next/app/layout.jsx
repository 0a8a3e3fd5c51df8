// The root layout, a server component: the client-tools part is the 'use client' shell.
import Shell from "./shell";

export const metadata = { title: "client-tools/react in Next.js", icons: { icon: "data:," } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <Shell>{children}</Shell>
      </body>
    </html>
  );
}
