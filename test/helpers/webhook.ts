import {
  json,
  startServer,
  type StandInServer,
} from "../../tasks/stand-ins/server.js";

/** An alert as the autopilot posts it to its webhook. */
export interface Alert {
  level: string;
  stage: number;
  text: string;
  /** The code of the error that raised it, if one did. */
  code?: string;
  at: string;
}

/** A loopback webhook receiver: every alert the autopilot posts. */
export async function startWebhook(): Promise<
  StandInServer & { alerts: Alert[] }
> {
  const alerts: Alert[] = [];
  const server = await startServer((_request, body) => {
    alerts.push(JSON.parse(body) as Alert);
    return json({ ok: true });
  });
  return { ...server, alerts };
}
