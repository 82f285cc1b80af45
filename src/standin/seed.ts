import type {
  StandinBot,
  StandinChannel,
  StandinTeam,
  StandinUser,
  StandinUserGroup,
} from "./types.js";

/**
 * The workspace the stand-in starts with: the people and channels an ordering flow needs
 * (someone who asks, an approver by user id, an approver through a user group, someone who may
 * not approve) in different time zones, and a general and an approvals channel.
 */

export const STANDIN_IDS = {
  team: "T0STANDIN1",
  app: "A0STANDIN1",
  botUser: "U0BOTUSER1",
  bot: "B0STANDIN1",
  requester: "U0REQUEST1",
  approver: "U0APPROVE1",
  groupApprover: "U0APPROVE2",
  outsider: "U0OUTSIDE1",
  approverGroup: "S0APPROVERS",
  general: "C0GENERAL1",
  approvals: "C0APPROVALS",
} as const;

export interface WorkspaceSeed {
  team: StandinTeam;
  bot: StandinBot;
  users: StandinUser[];
  userGroups: StandinUserGroup[];
  channels: StandinChannel[];
}

/** Seconds east of UTC in `timeZone` at `at` (daylight saving time included), as Slack's tz_offset. */
export function timeZoneOffsetSeconds(timeZone: string, at: Date = new Date()): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    timeZoneName: "longOffset",
  }).formatToParts(at);
  const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === "-" ? -seconds : seconds;
}

function timeZoneLabel(timeZone: string, at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "long" }).formatToParts(
    at,
  );
  return parts.find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

export interface PersonSeed {
  id: string;
  name: string;
  realName: string;
  tz: string;
  isAdmin?: boolean;
}

export function makeUser(teamId: string, person: PersonSeed): StandinUser {
  return {
    id: person.id,
    team_id: teamId,
    name: person.name,
    real_name: person.realName,
    tz: person.tz,
    tz_label: timeZoneLabel(person.tz),
    tz_offset: timeZoneOffsetSeconds(person.tz),
    is_bot: false,
    is_admin: person.isAdmin ?? false,
    deleted: false,
    profile: {
      real_name: person.realName,
      display_name: person.name,
      email: `${person.name}@example.com`,
    },
  };
}

export function makeChannel(id: string, name: string, isPrivate = false): StandinChannel {
  return {
    id,
    name,
    is_channel: true,
    is_private: isPrivate,
    is_im: false,
    created: Math.floor(Date.now() / 1000),
    is_member: true,
  };
}

export function defaultWorkspaceSeed(): WorkspaceSeed {
  const teamId = STANDIN_IDS.team;
  return {
    team: { id: teamId, domain: "standin-networks", name: "Stand-in Networks" },
    bot: {
      userId: STANDIN_IDS.botUser,
      botId: STANDIN_IDS.bot,
      appId: STANDIN_IDS.app,
      name: "connect",
    },
    users: [
      makeUser(teamId, {
        id: STANDIN_IDS.requester,
        name: "rita.requester",
        realName: "Rita Requester",
        tz: "Europe/Amsterdam",
      }),
      makeUser(teamId, {
        id: STANDIN_IDS.approver,
        name: "alex.approver",
        realName: "Alex Approver",
        tz: "Europe/London",
      }),
      makeUser(teamId, {
        id: STANDIN_IDS.groupApprover,
        name: "grace.approver",
        realName: "Grace Approver",
        tz: "America/New_York",
      }),
      makeUser(teamId, {
        id: STANDIN_IDS.outsider,
        name: "oscar.outsider",
        realName: "Oscar Outsider",
        tz: "Asia/Tokyo",
      }),
    ],
    userGroups: [
      {
        id: STANDIN_IDS.approverGroup,
        team_id: teamId,
        handle: "network-approvers",
        name: "Network approvers",
        users: [STANDIN_IDS.groupApprover],
      },
    ],
    channels: [
      makeChannel(STANDIN_IDS.general, "general"),
      makeChannel(STANDIN_IDS.approvals, "network-approvals"),
    ],
  };
}
