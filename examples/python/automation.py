"""
Runs a Pulumi Python program through Pulumi's Automation API, as an inline program: the program
runs inside this process, so no Python language host is needed (docs/plugin.md). One operation
per call. `up` and `destroy` print one JSON line: the operation's resource changes, the stack's
outputs (secrets as "[secret]") and the state. `preview` prints what `pulumi preview` prints (with
"json": true, what `pulumi preview --json` does) and exits 1 when the preview fails, a mandatory
policy violation among the reasons.

    python automation.py <up|destroy|preview> <program file> <work dir> '<settings>'

The settings are a JSON object: "plain" and "secret" stack config, and optionally "policyPacks"
and "policyPackConfigs" (folders and files, as --policy-pack and --policy-pack-config take them,
for `preview` and `up`) and "json". The project is the one the Pulumi.yaml beside the program file
names; the work dir (made if missing) holds its settings; the stack is "dev".

Pulumi's backend, home, passphrase and PATH (the CLI, the provider plugin) come from the
environment.
"""
import json
import os
import runpy
import sys

import yaml
from pulumi import automation as auto


def main() -> None:
    operation, program_file, work_dir, config = sys.argv[1:5]
    settings = json.loads(config)
    os.makedirs(work_dir, exist_ok=True)
    with open(os.path.join(os.path.dirname(os.path.abspath(program_file)), "Pulumi.yaml")) as f:
        project = auto.ProjectSettings(name=yaml.safe_load(f)["name"], runtime="python")
    stack = auto.create_or_select_stack(
        stack_name="dev",
        project_name=project.name,
        program=lambda: runpy.run_path(program_file, run_name="__main__"),
        opts=auto.LocalWorkspaceOptions(work_dir=work_dir, project_settings=project),
    )
    values = {k: auto.ConfigValue(value=v) for k, v in settings["plain"].items()}
    values.update({k: auto.ConfigValue(value=v, secret=True) for k, v in settings["secret"].items()})
    stack.set_all_config(values)
    policies = {
        "policy_packs": settings.get("policyPacks"),
        "policy_pack_configs": settings.get("policyPackConfigs"),
    }
    if operation == "preview":
        try:
            stack.preview(on_output=print, json=settings.get("json"), **policies)
        except auto.errors.CommandError:
            sys.exit(1)
        return
    if operation == "up":
        result = stack.up(on_output=lambda line: print(line, file=sys.stderr), **policies)
        changes = result.summary.resource_changes
    elif operation == "destroy":
        result = stack.destroy(on_output=lambda line: print(line, file=sys.stderr))
        changes = result.summary.resource_changes
    else:
        raise SystemExit(f"unknown operation {operation}")
    outputs = {k: "[secret]" if v.secret else v.value for k, v in stack.outputs().items()}
    state = stack.export_stack().deployment
    print(json.dumps({"changes": changes, "outputs": outputs, "state": state}))


main()
