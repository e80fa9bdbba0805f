import { failedMails, insertFailedMails } from "./outbox-helpers";

// Runs once, after the web server is up and before any test: what must be written into the server's local D1 from
// outside it is written now, while nothing else writes (see failedMails). E2E_RUN names this run's rows.
export default async function globalSetup(): Promise<void> {
  process.env.E2E_RUN = crypto.randomUUID().slice(0, 8);
  await insertFailedMails(Object.values(failedMails()));
}
