// The Skills extension's host client in the TypeScript SDK v2 (`SkillsClient` of `@modelcontextprotocol/client`
// 2.4.0, pinned in package.json), against the server given on the command line over stdio, or at a URL over
// Streamable HTTP. Lists the skills, gets each one and one that is not served, reads every file of every
// skill through SkillsClient (which verifies size, digest and the SKILL.md frontmatter) and one file the first
// skill does not list, and where the server declares `directoryRead`, reads every directory of every skill and
// one URI that is not a directory. Prints one line per step, stable across runs.
//
//   node ts-client.mjs [--version 2026-07-28|2025-11-25] SERVER [ARGS...]
//   node ts-client.mjs [--version 2026-07-28|2025-11-25] URL

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import assert from 'node:assert/strict';

let argv = process.argv.slice(2);
let version = '2026-07-28';
if (argv[0] === '--version') [, version, ...argv] = argv;
const [command, ...args] = argv;

const negotiation = version === '2025-11-25' ? 'legacy' : { pin: version };
const client = new Client({ name: 'skills-typescript-host', version: '2.4.0' }, { versionNegotiation: { mode: negotiation } });
// A subclass, so the SDK probes with server/discover on this process, not on a sibling it spawns: the recording
// through the proxy then holds the whole session.
class InPlaceStdio extends StdioClientTransport {}
const http = /^https?:\/\//.test(command);
await client.connect(http ? new StreamableHTTPClientTransport(new URL(command)) : new InPlaceStdio({ command, args, stderr: 'inherit' }));
assert.equal(client.getNegotiatedProtocolVersion(), version);

/** The JSON-RPC error code of a failed call, or why it did not fail. */
async function errorCode(call) {
  try {
    await call();
    return 'no error';
  } catch (error) {
    return error.code ?? error.data?.code ?? String(error);
  }
}

const skills = new SkillsClient(client);
const say = (...parts) => console.log(parts.join(' '));
try {
  assert.ok(skills.supported, 'the server does not declare the Skills extension');
  const { skills: entries, invalid } = await skills.list();
  say('list:', entries.length, 'skills,', invalid.length, 'invalid');
  for (const listed of entries) {
    const { skill } = await skills.get(listed.uri);
    assert.deepEqual(skill, listed, `skills/get ${listed.uri} differs from its listing`);
    const files = skill.resources === 'dynamic' ? [] : skill.resources;
    let bytes = 0;
    for (const resource of files) {
      const file = await skills.read(skill, resource.uri);
      assert.equal(file.verified, true);
      bytes += file.bytes.byteLength;
    }
    say('skill', skill.uri, skill.frontmatter.name + ':', files.length, 'files,', bytes, 'bytes verified');
  }
  say('get unknown:', await errorCode(() => skills.get('skill://not-served/SKILL.md')));
  // Past SkillsClient, which refuses an unlisted file before sending: the server's own answer.
  const unlisted = entries[0].uri.replace(/SKILL\.md$/, 'not-listed.md');
  say('read unlisted:', await errorCode(() => client.readResource({ uri: unlisted })));
  if (skills.directoryRead) {
    // A nested skill's root is also a directory of the skill around it: read once.
    const seen = new Set();
    for (const listed of entries) {
      const pending = [listed.uri.slice(0, -'/SKILL.md'.length)];
      while (pending.length > 0) {
        const dir = pending.shift();
        if (seen.has(dir)) continue;
        seen.add(dir);
        const { resources } = await skills.readDirectory(dir);
        pending.push(...resources.filter((r) => r.mimeType === 'inode/directory').map((r) => r.uri));
        say('directory', dir + ':', resources.map((r) => r.name).join(' '));
      }
    }
    say('directory of a file:', await errorCode(() => skills.readDirectory(entries[0].uri)));
  } else {
    say('directoryRead: not declared');
  }
} finally {
  await client.close();
}
