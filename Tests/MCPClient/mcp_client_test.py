"""End-to-end checks of `jarvis mcp` with the official MCP Python SDK as the client.

Run by Tests/EndToEndTests/MCPEndToEndTests.swift, which starts a real `jarvis-agent` first:

    python mcp_client_test.py SCENARIO [JARVIS MCP OPTIONS…]

Environment: JARVIS_BIN (the `jarvis` binary), JARVIS_AGENT_BIN (`jarvis-agent`),
JARVIS_RUNTIME_DIR (the sandbox's runtime folder), MCP_CLIENT_NAME (the clientInfo name),
and per scenario SUITE (a defaults suite the agent serves), AGENT_NAME, PHOENIX_DIR and
EXPECT_REVEAL.
Exits 0 after printing "ok"; any failed check raises and exits non-zero.
"""

import json
import os
import subprocess
import sys
import time
import warnings

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

try:
    from mcp.shared.exceptions import MCPError as ProtocolError
except ImportError:  # SDK 1.x
    from mcp.shared.exceptions import McpError as ProtocolError

# resources/subscribe is deprecated from 2026-07-28 on; this server speaks the 2025 revisions.
warnings.simplefilter("ignore")

JARVIS = os.environ["JARVIS_BIN"]
AGENT = os.environ["JARVIS_AGENT_BIN"]
RUNTIME = os.environ["JARVIS_RUNTIME_DIR"]
CLIENT_NAME = os.environ.get("MCP_CLIENT_NAME", "jarvis-e2e-client")
WRITING = {"set_preference", "delete_preference", "reset_preference", "undo_change", "restore_preferences"}
ALL_TOOLS = {
    "list_agents", "list_preferences", "get_preference", "set_preference", "delete_preference",
    "reset_preference", "preference_history", "undo_change", "restore_preferences", "check", "export_snapshot",
    "diff_snapshots",
}


def environment():
    env = {"JARVIS_RUNTIME_DIR": RUNTIME, "NO_COLOR": "1"}
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME", "PATH"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def get(model, name):
    """A field by its SDK 2 (snake_case) or SDK 1 (camelCase) attribute name."""
    if hasattr(model, name):
        return getattr(model, name)
    head, *rest = name.split("_")
    return getattr(model, head + "".join(part.title() for part in rest), None)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Notifications:
    """Collects the server's notifications and lets a check wait for one."""

    def __init__(self):
        self.seen = []
        self.event = anyio.Event()

    async def handler(self, message):
        message = getattr(message, "root", message)
        method = getattr(message, "method", None)
        if method is None:
            return
        params = getattr(message, "params", None)
        self.seen.append((method, params))
        self.event.set()
        self.event = anyio.Event()

    async def wait_for(self, method, uri=None, timeout=30):
        with anyio.fail_after(timeout):
            while True:
                for index, (seen, params) in enumerate(self.seen):
                    if seen == method and (uri is None or str(getattr(params, "uri", "")) == uri):
                        del self.seen[index]
                        return params
                await self.event.wait()


def text(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def structured(result):
    check(not get(result, "is_error"), f"the call failed: {text(result)}")
    check(isinstance(get(result, "structured_content"), dict), f"no structuredContent: {result}")
    return get(result, "structured_content")


async def high_level_client():
    """The SDK's high-level Client probes server/discover first: this server speaks 2026-07-28,
    so the client stays on it (stateless requests, resultType, subscriptions/listen)."""
    try:
        from mcp import Client
    except ImportError:  # SDK 1.x has no such probe
        return
    server = StdioServerParameters(command=JARVIS, args=["mcp"], env=environment())
    async with Client(server, client_info=types.Implementation(name=CLIENT_NAME, version="1.0")) as client:
        check(client.protocol_version == "2026-07-28", f"the high-level client negotiated {client.protocol_version}")
        names = {tool.name for tool in (await client.list_tools()).tools}
        check(names == ALL_TOOLS, f"tools through Client: {sorted(names)}")
        suite = os.environ["SUITE"]
        made = await client.call_tool("set_preference", {"container": suite, "key": "count", "value": 43})
        check(not made.is_error, f"set_preference at 2026-07-28: {text(made)}")
        got = await client.call_tool("get_preference", {"container": suite, "key": "count"})
        check(not got.is_error, f"get_preference at 2026-07-28: {text(got)}")
        resources = (await client.list_resources()).resources
        uri = next(str(resource.uri) for resource in resources if str(resource.uri).endswith("/" + suite))
        # resources/subscribe is gone at 2026-07-28: a listen stream carries the update instead.
        async with client.listen(resource_subscriptions=[uri]) as subscription:
            done = await client.call_tool("set_preference", {"container": suite, "key": "count", "value": 44})
            check(not done.is_error, f"set_preference at 2026-07-28: {text(done)}")
            with anyio.fail_after(30):
                async for event in subscription:
                    if getattr(event, "uri", None) == uri:
                        break
        document = json.loads((await client.read_resource(uri)).contents[0].text)
        count = next(item for item in document["items"] if item["key"] == "count")
        check(count["value"] == 44, f"after the listened update: {count}")


def start_agent(*args):
    """Starts a real jarvis-agent in the sandbox and waits for its discovery file."""
    agent = subprocess.Popen([AGENT, *args], env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    record = os.path.join(RUNTIME, f"{agent.pid}.json")
    for _ in range(1000):
        if os.path.exists(record):
            return agent
        if agent.poll() is not None:
            raise AssertionError(f"jarvis-agent {args} exited at start")
        time.sleep(0.02)
    raise AssertionError("jarvis-agent did not publish its discovery file")


async def session(body, args=()):
    notifications = Notifications()
    server = StdioServerParameters(command=JARVIS, args=["mcp", *args], env=environment())
    async with stdio_client(server) as (read, write):
        async with ClientSession(
            read, write, message_handler=notifications.handler,
            client_info=types.Implementation(name=CLIENT_NAME, version="1.0"),
        ) as client:
            result = await client.initialize()
            version = get(result, "protocol_version")
            check(version in ("2025-06-18", "2025-11-25"), f"negotiated {version}")
            check(get(result, "server_info").name == "jarvis", "the server names itself jarvis")
            check(result.capabilities.tools is not None and get(result.capabilities.tools, "list_changed"), "tools.listChanged")
            check(result.capabilities.resources is not None and result.capabilities.resources.subscribe,
                  "resources.subscribe")
            await body(client, notifications)


async def tool_names(client):
    return {tool.name for tool in (await client.list_tools()).tools}


async def scenario_tools(client, notifications):
    suite = os.environ["SUITE"]
    listing = await client.list_tools()
    tools = {tool.name: tool for tool in listing.tools}
    check(set(tools) == ALL_TOOLS, f"tools: {sorted(tools)}")
    for tool in listing.tools:
        check(get(tool, "input_schema").get("type") == "object", f"{tool.name} input schema")
        check(get(tool, "output_schema") is not None and get(tool, "output_schema").get("type") == "object", f"{tool.name} output schema")
        hints = tool.annotations
        check(hints is not None and get(hints, "read_only_hint") is not None and get(hints, "destructive_hint") is not None
              and get(hints, "idempotent_hint") is not None, f"{tool.name} annotations")
        check(get(hints, "read_only_hint") == (tool.name not in WRITING), f"{tool.name} readOnlyHint")

    agents = structured(await client.call_tool("list_agents", {}))["agents"]
    check(len(agents) == 1 and agents[0]["editing"] is True, f"agents: {agents}")
    check("token" not in json.dumps(agents), "list_agents must never show a token")

    page = structured(await client.call_tool("list_preferences", {"container": suite, "limit": 2}))
    check(len(page["items"]) == 2 and "nextCursor" in page, f"first page: {page}")
    rest = structured(await client.call_tool(
        "list_preferences", {"container": suite, "limit": 1000, "cursor": page["nextCursor"]}))
    keys = [item["key"] for item in page["items"] + rest["items"]]
    check(len(keys) == len(set(keys)) and {"count", "name", "profile"} <= set(keys), f"keys: {keys}")

    item = structured(await client.call_tool(
        "get_preference", {"container": suite, "key": "profile", "pointer": "/port"}))["item"]
    check(item["value"] == 8080 and item["type"] == "integer" and item["pointer"] == "/port", f"pointer get: {item}")

    item = structured(await client.call_tool(
        "set_preference", {"container": suite, "key": "count", "value": 5, "type": "integer"}))["item"]
    check(item["value"] == 5, f"set: {item}")
    revision = item["revision"]
    item = structured(await client.call_tool(
        "set_preference", {"container": suite, "key": "count", "value": 6, "expectedRevision": revision}))["item"]
    check(item["value"] == 6, f"guarded set: {item}")
    conflict = await client.call_tool(
        "set_preference", {"container": suite, "key": "count", "value": 7, "expectedRevision": revision})
    check(get(conflict, "is_error") and "conflict" in text(conflict), f"stale revision: {text(conflict)}")
    item = structured(await client.call_tool(
        "set_preference", {"container": suite, "key": "profile", "pointer": "/port", "value": 9090}))["item"]
    check(item["value"] == 9090, f"pointer set: {item}")
    item = structured(await client.call_tool(
        "set_preference", {"container": suite, "key": "when", "value": "2024-01-15T10:00:00Z", "type": "date"}))["item"]
    check(item["type"] == "date", f"typed set: {item}")

    before = structured(await client.call_tool("export_snapshot", {"container": suite}))
    check(before["snapshot"]["format"] == "jarvis-snapshot" and before["snapshot"]["items"], f"export: {before}")

    # tmp_b is one letter from tmp_a: a new key that close is refused as a likely typo
    # unless the call says create.
    typo = await client.call_tool("set_preference", {"container": suite, "key": "coutn", "value": 1})
    check(get(typo, "is_error") and "Did you mean" in text(typo) and "count" in text(typo) and "create" in text(typo),
          f"typo: {text(typo)}")
    for key in ("tmp_a", "tmp_b"):
        structured(await client.call_tool(
            "set_preference", {"container": suite, "key": key, "value": "x", "create": True}))
    dry = structured(await client.call_tool(
        "delete_preference", {"container": suite, "match": "tmp_*", "dryRun": True}))
    check(dry["dryRun"] is True and sorted(dry["keys"]) == ["tmp_a", "tmp_b"], f"dry run: {dry}")
    gone = structured(await client.call_tool("delete_preference", {"container": suite, "match": "tmp_*"}))
    check(gone["count"] == 2, f"bulk delete: {gone}")
    item = structured(await client.call_tool("delete_preference", {"container": suite, "key": "name"}))["item"]
    check(item["key"] == "name", f"delete: {item}")
    reset = structured(await client.call_tool("reset_preference", {"container": suite, "key": "count"}))
    check(reset["removed"]["value"] == 6, f"reset: {reset}")

    diff = structured(await client.call_tool(
        "diff_snapshots", {"from": before["snapshot"], "to": "agent", "container": suite}))
    removed = sorted(item["key"] for item in diff["removed"])
    check(removed == ["count", "name"], f"diff removed: {diff}")

    history = structured(await client.call_tool("preference_history", {"client": CLIENT_NAME}))
    records = history["records"]
    check(len(records) >= 8 and all(record["client"] == CLIENT_NAME for record in records),
          f"audit records: {records}")
    actions = {record["action"] for record in records}
    check(actions == {"set", "delete"}, f"audit actions: {actions}")

    # The journal: entry ids and values; undo_change steps back, restore_preferences previews.
    journal = structured(await client.call_tool("preference_history", {"container": suite}))["entries"]
    check(journal and all(isinstance(entry["id"], int) for entry in journal), f"journal entries: {journal}")
    newest = journal[-1]
    check(newest["key"] == "count" and newest["before"]["value"] == 6 and "after" not in newest,
          f"the reset, with its value before: {newest}")
    undone = structured(await client.call_tool("undo_change", {}))
    check(undone["undone"]["id"] == newest["id"] and undone["restore"]["value"] == 6, f"undo: {undone}")
    again = structured(await client.call_tool("undo_change", {"dryRun": True}))
    check(again["undone"]["key"] == "name" and again["dryRun"] is True, f"a second undo steps back: {again}")
    preview = structured(await client.call_tool(
        "restore_preferences", {"toEntry": journal[0]["id"], "containers": [suite], "dryRun": True}))
    check(preview["dryRun"] is True and preview["changes"], f"restore preview: {preview}")

    # check: the same findings as `jarvis check`, structured.
    checked = structured(await client.call_tool("check", {"container": suite}))
    check(isinstance(checked["findings"], list), f"check: {checked}")

    resources = (await client.list_resources()).resources
    uri = next(str(resource.uri) for resource in resources if str(resource.uri).endswith("/" + suite))
    check(uri.startswith("jarvis://"), f"resource uri {uri}")
    contents = (await client.read_resource(uri)).contents
    document = json.loads(contents[0].text)
    check(get(contents[0], "mime_type") == "application/json" and document["container"] == suite, f"read: {document}")
    check(any(item["key"] == "profile" for item in document["items"]), f"resource items: {document}")

    # A container whose name holds a slash is one percent-encoded URI segment.
    files = next(resource for resource in resources if resource.name == "files:env/prod.json")
    check(str(files.uri).endswith("/files/env%2Fprod.json"), f"files uri {files.uri}")
    document = json.loads((await client.read_resource(str(files.uri))).contents[0].text)
    check([item["key"] for item in document["items"]] == ["port"], f"files resource: {document}")


async def scenario_production(client, notifications):
    production = os.environ["AGENT_NAME"]
    names = await tool_names(client)
    check(not (names & WRITING), f"a production agent must not offer writing tools: {sorted(names)}")
    refused = await client.call_tool("set_preference", {"container": os.environ["SUITE"], "key": "x", "value": 1})
    check(get(refused, "is_error") and "editing" in text(refused), f"writing to production: {text(refused)}")
    check(get(refused, "structured_content") is None, "an error result carries no structuredContent")
    for tool, arguments in (("undo_change", {}), ("restore_preferences", {"toEntry": 1})):
        refused = await client.call_tool(tool, arguments)
        check(get(refused, "is_error") and "editing" in text(refused), f"{tool} on production: {text(refused)}")
    agents = structured(await client.call_tool("list_agents", {}))["agents"]
    check(agents[0]["production"] is True and agents[0]["editing"] is False, f"agents: {agents}")

    # A second agent that allows editing starts: the writing tools appear, announced.
    folder = os.path.join(RUNTIME, "..", "editable")
    os.makedirs(folder, exist_ok=True)
    editable = subprocess.Popen(
        [AGENT, "--defaults-dir", folder, "--name", "editable"], env=environment(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await notifications.wait_for("notifications/tools/list_changed")
        names = await tool_names(client)
        check(WRITING <= names, f"writing tools once an agent allows editing: {sorted(names)}")
        done = await client.call_tool(
            "set_preference", {"agent": "editable", "scanner": "defaults", "container": "made.by.mcp", "key": "k", "value": "v"})
        check(not get(done, "is_error"), f"writing to the editable agent: {text(done)}")
        refused = await client.call_tool(
            "set_preference", {"agent": production, "container": os.environ["SUITE"], "key": "x", "value": 1})
        check(get(refused, "is_error"), f"writing to production through the agent argument: {text(refused)}")
    finally:
        editable.terminate()
        editable.wait()
    await notifications.wait_for("notifications/tools/list_changed")
    names = await tool_names(client)
    check(not (names & WRITING), f"writing tools gone again: {sorted(names)}")


async def scenario_subscription(client, notifications):
    suite = os.environ["SUITE"]
    resources = (await client.list_resources()).resources
    uri = next(str(resource.uri) for resource in resources if str(resource.uri).endswith("/" + suite))
    await client.subscribe_resource(uri)
    done = subprocess.run([JARVIS, "set", suite, "count", "43", "--int"], env=environment(),
                          capture_output=True, text=True)
    check(done.returncode == 0, f"jarvis set failed: {done.stderr}")
    await notifications.wait_for("notifications/resources/updated", uri=uri)
    document = json.loads((await client.read_resource(uri)).contents[0].text)
    count = next(item for item in document["items"] if item["key"] == "count")
    check(count["value"] == 43, f"after the update: {count}")
    await client.unsubscribe_resource(uri)

    # A new container is a new resource: the client hears that the list changed.
    done = subprocess.run([JARVIS, "set", "defaults:made.by.cli", "k", "v"], env=environment(),
                          capture_output=True, text=True)
    check(done.returncode == 0, f"jarvis set failed: {done.stderr}")
    await notifications.wait_for("notifications/resources/list_changed")
    uris = [str(resource.uri) for resource in (await client.list_resources()).resources]
    check(any(uri.endswith("/defaults/made.by.cli") for uri in uris), f"the new container is listed: {uris}")
    try:
        await client.subscribe_resource(uri.rsplit("/", 1)[0] + "/no.such.container")
        raise AssertionError("subscribing to a missing container must fail")
    except ProtocolError as error:
        check(error.error.code == -32002, f"missing resource code {error.error.code}")


async def scenario_restart(client, notifications):
    """Under --agent phoenix, the agent restarts without --production: the writing tools come."""
    names = await tool_names(client)
    check(not (names & WRITING), f"production phoenix offers no writing tools: {sorted(names)}")
    phoenix = PHOENIX.pop()
    phoenix.terminate()
    phoenix.wait()
    reborn = start_agent("--defaults-dir", os.environ["PHOENIX_DIR"], "--name", "phoenix")
    try:
        await notifications.wait_for("notifications/tools/list_changed")
        names = await tool_names(client)
        check(WRITING <= names, f"phoenix allows editing after its restart: {sorted(names)}")
        done = await client.call_tool("set_preference", {"scanner": "defaults", "container": "reborn", "key": "k",
                                                         "value": True})
        check(not get(done, "is_error"), f"a write after the restart: {text(done)}")
    finally:
        reborn.terminate()
        reborn.wait()


async def scenario_secrets(client, notifications):
    """Secrets stay masked without --allow-reveal; with it, reveal works where the agent allows it."""
    listed = structured(await client.call_tool("list_preferences", {"scanner": "secrets"}))["items"]
    check(listed and all(item.get("masked") is True and "value" not in item for item in listed),
          f"secrets are masked: {listed}")
    secret = listed[0]
    document = json.dumps(structured(await client.call_tool("export_snapshot", {})))
    check("hunter2" not in document, "an export never carries a masked secret")
    resources = (await client.list_resources()).resources
    uri = next(str(resource.uri) for resource in resources if "/secrets/" in str(resource.uri))
    check("hunter2" not in (await client.read_resource(uri)).contents[0].text, "resources are always masked")
    asked = await client.call_tool(
        "get_preference", {"scanner": "secrets", "container": secret["container"], "key": secret["key"], "reveal": True})
    if os.environ.get("EXPECT_REVEAL") == "1":
        item = structured(asked)["item"]
        check(item["value"] == "hunter2" and "masked" not in item, f"revealed: {item}")
        records = structured(await client.call_tool("preference_history", {"action": "reveal"}))["records"]
        check(records and records[-1]["client"] == CLIENT_NAME, f"the reveal is audited: {records}")
    elif "--allow-reveal" in SERVER_ARGS:
        check(get(asked, "is_error") and "does not allow revealing" in text(asked), f"the agent refuses: {text(asked)}")
    else:
        check(get(asked, "is_error") and "--allow-reveal" in text(asked), f"reveal refused: {text(asked)}")
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        check("reveal" not in get(tools["get_preference"], "input_schema")["properties"], "no reveal argument")


PHOENIX = []
SERVER_ARGS = []


async def expect_protocol_error(call, code, what):
    try:
        await call
    except ProtocolError as error:
        check(error.error.code == code, f"{what}: code {error.error.code}, {error.error.message}")
        return error.error.message
    raise AssertionError(f"{what} must be a protocol error")


async def still_alive(client):
    await client.send_ping()
    agents = structured(await client.call_tool("list_agents", {}))
    check(len(agents["agents"]) == 1, "the server answers tools after bad input")


async def scenario_bad_input(client, notifications):
    suite = os.environ["SUITE"]
    await expect_protocol_error(client.call_tool("no_such_tool", {}), -32602, "an unknown tool")
    await still_alive(client)

    wrong = await client.call_tool("get_preference", {"container": suite, "key": 42})
    check(get(wrong, "is_error") and "key" in text(wrong) and "string" in text(wrong), f"wrong type: {text(wrong)}")
    wrong = await client.call_tool("list_preferences", {"limit": "ten"})
    check(get(wrong, "is_error") and "limit" in text(wrong), f"wrong type: {text(wrong)}")
    wrong = await client.call_tool("list_preferences", {"limit": 0})
    check(get(wrong, "is_error"), f"out of range: {text(wrong)}")
    wrong = await client.call_tool("get_preference", {"container": suite, "key": "count", "colour": "red"})
    check(get(wrong, "is_error") and "colour" in text(wrong), f"unknown argument: {text(wrong)}")
    wrong = await client.call_tool("delete_preference", {"container": suite, "key": "count", "match": "*"})
    check(get(wrong, "is_error"), f"key and match together: {text(wrong)}")
    wrong = await client.call_tool("get_preference", {"container": suite, "key": "count", "reveal": True})
    check(get(wrong, "is_error") and "allow-reveal" in text(wrong), f"reveal without --allow-reveal: {text(wrong)}")
    await still_alive(client)

    # Over the agent's 1 MiB request limit: refused before it reaches the agent.
    huge = await client.call_tool("set_preference", {"container": suite, "key": "huge", "value": "x" * 2_000_000})
    check(get(huge, "is_error") and "tooLarge" in text(huge), f"a 2 MB value: {text(huge)}")
    # Over the server's own 4 MiB message limit: a protocol error for that request, the one the
    # agent sends for a line over its limit (tooLarge, -32006).
    message = await expect_protocol_error(
        client.call_tool("set_preference", {"container": suite, "key": "huge", "value": "y" * 6_000_000}),
        -32006, "a 6 MB message")
    check("limit" in message, f"oversize message: {message}")
    huge_name = await client.call_tool("get_preference", {"container": suite, "key": "k" * 100_000})
    check(get(huge_name, "is_error"), f"a 100,000 character key: {text(huge_name)}")
    await expect_protocol_error(client.read_resource("https://example.com/x"), -32602, "a foreign resource uri")
    await still_alive(client)
    count = structured(await client.call_tool("get_preference", {"container": suite, "key": "count"}))["item"]
    check(count["value"] == 42, f"nothing was written by bad input: {count}")


async def main():
    scenario = sys.argv[1]
    SERVER_ARGS.extend(sys.argv[2:])
    body = {
        "tools": scenario_tools,
        "production": scenario_production,
        "subscription": scenario_subscription,
        "bad-input": scenario_bad_input,
        "restart": scenario_restart,
        "secrets": scenario_secrets,
    }[scenario]
    if scenario == "restart":
        PHOENIX.append(start_agent("--defaults-dir", os.environ["PHOENIX_DIR"], "--name", "phoenix", "--production"))
        SERVER_ARGS.extend(["--agent", "phoenix"])
    try:
        await session(body, SERVER_ARGS)
        if scenario == "tools":
            await high_level_client()
    finally:
        for agent in PHOENIX:
            agent.terminate()
            agent.wait()
    print("ok")


if __name__ == "__main__":
    anyio.run(main)
