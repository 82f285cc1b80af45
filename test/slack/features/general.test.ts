// The general commands (src/slack/features/general): help, whoami and policy, called with a
// fake command context. The feature registers no listeners; its answers are its handlers'.
import { describe, expect, it } from "vitest";
import { defaultPolicy } from "../../../src/approvals/index.js";
import { commandsFor } from "../../../src/domain/commands.js";
import type { Identity } from "../../../src/provider/identity.js";
import type { CommandContext } from "../../../src/slack/connect.js";
import { help, policy, whoami } from "../../../src/slack/features/general/command.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { policyView } from "../../../views/general/policy.js";
import { whoamiView } from "../../../views/general/whoami.js";
import { helpView } from "../../../views/help.js";
import type { Reply } from "../../../views/reply.js";
import { listenerServices } from "../../support/fakeSlack.js";

const identity: Identity = { userId: "prov-user-1", companyId: "comp-1", companyUsername: "acme" };

function context(name: CommandContext["name"], services: ListenerDeps) {
  const replies: Reply[] = [];
  const ctx: CommandContext = {
    name,
    args: [],
    page: 0,
    userId: "U0ASKER01",
    channelId: "C0GENERAL1",
    // Read when a command asks (the fake builds the lifecycle API on first use).
    get requests() {
      return services.requests;
    },
    groups: async () => [],
    permalink: async () => undefined,
    timeZone: async () => undefined,
    reply: async (reply) => void replies.push(reply),
    openModal: async () => ({ update: async () => {} }),
  };
  return { ctx, services, replies };
}

describe("general commands", () => {
  it("whoami says who the bot acts as, for the person asking", async () => {
    const { ctx, services, replies } = context(
      "whoami",
      listenerServices({ identity: async () => identity }),
    );
    await whoami(ctx, services);
    expect(replies).toEqual([whoamiView(identity, "U0ASKER01")]);
  });

  it("policy words the default policy from APPROVERS when there is no policy file", async () => {
    const approvals = { approvers: ["U0APPROVE1"], allowSelfApproval: false };
    const { ctx, services, replies } = context("policy", listenerServices({ approvals } as never));
    await policy(ctx, services);
    expect(replies).toEqual([
      policyView(defaultPolicy(["U0APPROVE1"]), { fromFile: false, allowSelfApproval: false }),
    ]);
  });

  it("help lists the commands this person may use, with a real port id as the example when there is one", async () => {
    const provider = { listPorts: async () => [{ id: "port-abc-1" }] };
    const { ctx, services, replies } = context(
      "help",
      listenerServices({
        identity: async () => identity,
        provider,
        approvals: { channel: "C0APPROVALS", approvers: ["U0APPROVE1"], requesters: [] },
      } as never),
    );
    await help(ctx, services);
    // U0ASKER01 approves nothing: the money commands say "your own".
    expect(replies).toEqual([
      helpView(commandsFor({ mayRequest: true, seesMoney: false }), { "<portId>": "port-abc-1" }),
    ]);
  });
});
