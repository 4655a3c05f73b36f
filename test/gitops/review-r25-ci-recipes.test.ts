// Review round 25 (the CI recipes in examples/ci, adopted as they are by a platform team).
import { spawn } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { collectOutput, ROOT } from "../helpers/cli.js";
import {
  copyConfiguration,
  emulatorWith,
  temporaryDirectory,
} from "../helpers/emulator.js";

const recipe = (file: string) =>
  parse(readFileSync(join(ROOT, "examples", "ci", file), "utf8"));

/** A workflow's `${{ github.* }}` expressions, evaluated as Actions does for one run's context. */
function evaluate(text: string, github: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const name = /^github\.([a-z_]+)$/.exec(expression)?.[1];
    if (name === undefined || !(name in github))
      throw new Error(`cannot evaluate ${expression}`);
    return github[name];
  });
}

describe("GitHub apply workflow: concurrency", () => {
  // Actions keeps one run in progress and ONE pending per concurrency group: a run entering the
  // group replaces (cancels) the pending one. The group was the same for every run, so a manual run
  // started on another branch (whose job is then skipped) cancelled a merge's apply waiting behind
  // the running one, and that merge was applied by no run.
  const group = (github: Record<string, string>) =>
    evaluate(
      String(recipe("github/scansync-apply.yml").concurrency.group),
      github,
    );
  const main = {
    ref: "refs/heads/main",
    ref_name: "main",
    event_name: "push",
    workflow: "scansync apply",
  };

  it("a manual run on another branch never shares the group of the runs of main", () => {
    const feature = {
      ref: "refs/heads/try-it",
      ref_name: "try-it",
      event_name: "workflow_dispatch",
      workflow: "scansync apply",
    };
    expect(group(feature)).not.toBe(group(main));
  });

  it("the runs of main, pushed or started by hand, still wait for one another", () => {
    expect(group({ ...main, event_name: "workflow_dispatch" })).toBe(
      group(main),
    );
    expect(
      recipe("github/scansync-apply.yml").concurrency["cancel-in-progress"],
    ).toBe(false);
  });
});

describe("GitLab recipe: the token that pushes the secrets state", () => {
  // The header asked for a Developer token, not protected: GitLab protects the default branch
  // against Developers' pushes by default, so the push after each apply failed the job; and an
  // unprotected variable is given to every merge request's pipeline, which runs the branch's own
  // .gitlab-ci.yml and package-lock.json, so anyone opening one could take the token.
  const header = readFileSync(
    join(ROOT, "examples", "ci", "gitlab-ci.yml"),
    "utf8",
  )
    .split("\n")
    .filter((line) => line.startsWith("#"))
    .join("\n");
  const pushToken =
    /^# {3}SCANSYNC_PUSH_TOKEN[\s\S]*?(?=^# {3}\S|^#\s*$|^# Drift)/m.exec(
      header,
    )?.[0] ?? "";

  it("asks for a protected variable, with a role the default branch lets push", () => {
    expect(pushToken).toContain("SCANSYNC_PUSH_TOKEN");
    expect(pushToken).toMatch(/"protected"/);
    expect(pushToken).toContain("Maintainer");
    expect(pushToken).not.toMatch(/Developer\)/);
  });

  it("the apply job, which uses it, runs only in pipelines of the default branch", () => {
    const rules = recipe("gitlab-ci.yml")["scansync:apply"].rules as {
      if: string;
    }[];
    expect(rules.map((rule) => rule.if)).toEqual([
      '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    ]);
    const others = Object.entries(recipe("gitlab-ci.yml")).filter(
      ([name]) => name.startsWith("scansync:") && name !== "scansync:apply",
    );
    for (const [, job] of others)
      expect(JSON.stringify(job)).not.toContain("SCANSYNC_PUSH_TOKEN");
  });
});

describe("every recipe runs the installed scansync, never one npx downloads", () => {
  // `npx scansync` runs a package of that name from the registry when none is installed (npx
  // assumes --yes in CI): with scansync left out of package.json, or NODE_ENV=production making
  // `npm ci` skip devDependencies, the job ran whatever the registry had under that name, with the
  // API token, the state key and every ${NAME} secret in its environment.
  const files = [
    "github/scansync-plan.yml",
    "github/scansync-apply.yml",
    "github/scansync-drift.yml",
    "github/scansync-audit.yml",
    "gitlab-ci.yml",
  ];
  it.each(files)("%s: each npx is told not to install (--no)", (file) => {
    const text = readFileSync(join(ROOT, "examples", "ci", file), "utf8");
    const runs = [...text.matchAll(/\bnpx((?:\s+-\S+)*)\s+scansync\b/g)];
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs)
      expect(run[1].split(/\s+/), run[0]).toContain("--no");
    // No other way to reach the registry's package: every npx in the file names scansync.
    expect([...text.matchAll(/\bnpx\b/g)].length).toBe(
      runs.length + (text.match(/`npx[^`]*`/g)?.length ?? 0),
    );
  });
});

describe("GitLab recipe: the plan note is updated in place", () => {
  // The note was looked for among the 100 notes created last, whoever wrote them: in a long merge
  // request (every push adds a system note) it fell off that page and a second plan note was added,
  // the first left showing an old plan; and a note someone else began with the heading was picked,
  // which the token may not edit (HTTP 403), failing the job at every push.
  const TOKEN = "r25-notes-Tok3n-5c1e7a";
  const BOT = 77;
  interface Note {
    id: number;
    body: string;
    author: { id: number };
    created_at: string;
    updated_at: string;
    system: boolean;
  }

  /** A GitLab API for one merge request's notes, on 127.0.0.1: the requests it was sent, and its notes. */
  async function gitlab(notes: Note[]) {
    const sent: string[] = [];
    const server = createServer(
      (request: IncomingMessage, response: ServerResponse) => {
        let text = "";
        request
          .setEncoding("utf8")
          .on("data", (chunk: string) => (text += chunk));
        request.on("end", () => {
          const url = new URL(request.url ?? "/", "http://127.0.0.1");
          sent.push(`${request.method} ${url.pathname}`);
          const reply = (status: number, body: unknown) =>
            response
              .writeHead(status, { "content-type": "application/json" })
              .end(JSON.stringify(body));
          if (request.headers["private-token"] !== "gitlab-token")
            return reply(401, { message: "401 Unauthorized" });
          if (url.pathname === "/api/v4/user")
            return reply(200, { id: BOT, username: "project_1_bot" });
          const match =
            /^\/api\/v4\/projects\/1\/merge_requests\/5\/notes(?:\/(\d+))?$/.exec(
              url.pathname,
            );
          if (!match) return reply(404, { message: "404 Not found" });
          const key =
            url.searchParams.get("order_by") === "updated_at"
              ? "updated_at"
              : "created_at";
          const sign = url.searchParams.get("sort") === "asc" ? 1 : -1;
          if (request.method === "GET") {
            const sorted = [...notes].sort(
              (a, b) => sign * a[key].localeCompare(b[key]),
            );
            return reply(
              200,
              sorted.slice(0, Number(url.searchParams.get("per_page") ?? 20)),
            );
          }
          const body = (JSON.parse(text) as { body: string }).body;
          if (request.method === "POST") {
            const note = {
              id: notes.length + 1000,
              body,
              author: { id: BOT },
              created_at: "2026-11-28T09:00:00Z",
              updated_at: "2026-11-28T09:00:00Z",
              system: false,
            };
            notes.push(note);
            return reply(201, note);
          }
          const note = notes.find((n) => n.id === Number(match[1]));
          if (!note) return reply(404, { message: "404 Not found" });
          if (note.author.id !== BOT)
            return reply(403, { message: "403 Forbidden" });
          note.body = body;
          note.updated_at = "2026-11-28T09:00:00Z";
          return reply(200, note);
        });
      },
    );
    await new Promise<void>((resolve) =>
      server.listen(0, "127.0.0.1", resolve),
    );
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`,
      sent,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it("updates its own note, however many newer notes there are, and never another user's", async () => {
    const at = (minute: number) =>
      `2026-11-28T08:${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}Z`;
    const ours: Note = {
      id: 1,
      body: "### scansync plan\n\nthe previous push",
      author: { id: BOT },
      created_at: at(0),
      updated_at: at(200),
      system: false,
    };
    const quoted: Note = {
      id: 2,
      body: "### scansync plan\n\nas the bot said: why this change?",
      author: { id: 3 },
      created_at: at(150),
      updated_at: at(150),
      system: false,
    };
    const pushes = Array.from({ length: 120 }, (_, i): Note => ({
      id: 10 + i,
      body: "added 1 commit",
      author: { id: 3 },
      created_at: at(1 + i),
      updated_at: at(1 + i),
      system: true,
    }));
    const notes = [ours, quoted, ...pushes];
    const api = await gitlab(notes);
    try {
      const emulator = await emulatorWith(TOKEN)();
      const dir = temporaryDirectory("scansync-r25-notes-");
      copyConfiguration(join(dir, "config"));
      writeFileSync(
        join(dir, "npx"),
        `#!/bin/sh\n[ "$1" = --no ] && shift\n[ "$1" = scansync ] && shift\nexec "${process.execPath}" "${join(ROOT, "bin", "run.js")}" "$@"\n`,
      );
      chmodSync(join(dir, "npx"), 0o755);
      // GitLab runs a job's script items in one shell, one after the other.
      const script = (
        recipe("gitlab-ci.yml")["scansync:plan"].script as string[]
      ).join("\n");
      const child = spawn(
        "bash",
        ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        {
          cwd: dir,
          env: {
            PATH: `${dir}:${process.env.PATH}`,
            HOME: dir,
            NO_COLOR: "1",
            SCANSYNC_API_URL: emulator.url,
            SCANSYNC_API_TOKEN: TOKEN,
            SCANSYNC_GITLAB_TOKEN: "gitlab-token",
            CI_API_V4_URL: api.url,
            CI_PROJECT_ID: "1",
            CI_MERGE_REQUEST_IID: "5",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const result = await collectOutput(child);
      expect(result.code, result.stderr).toBe(0);
      expect(api.sent.filter((line) => !line.startsWith("GET"))).toEqual([
        "PUT /api/v4/projects/1/merge_requests/5/notes/1",
      ]);
      expect(notes).toHaveLength(122);
      expect(ours.body).toMatch(/^### scansync plan\n/);
      expect(ours.body).toContain("dc-lisbon-agent");
      expect(quoted.body).toBe(
        "### scansync plan\n\nas the bot said: why this change?",
      );
    } finally {
      await api.close();
    }
  });
});
