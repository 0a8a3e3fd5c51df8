// The route with a loader, Next's way: a server component whose data takes 200 ms, rendered on
// each request (connection()), handed to a client component that declares the tool.
import { connection } from "next/server";
import Loaded from "./loaded";

export default async function LoadedRoute() {
  await connection();
  const data = await new Promise((done) => setTimeout(() => done({ text: "loaded after 200 ms" }), 200));
  return <Loaded data={data} />;
}
