import Providers from "./providers";

export const metadata = { title: "client-tools in Next.js", icons: { icon: "data:," } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
