# Ansible's template action's rendering (ansible-core 2.14,
# plugins/action/template.py) of sample sources, for
# tests/unit/test-template-file.c: reads a JSON object {vars, sources} on
# stdin, prints a JSON list of each source rendered as the action renders
# it (an AnsibleEnvironment with trim_blocks on, do_template with
# preserve_trailing_newlines and no backslash escaping), or {error:
# message}.
import json
import sys

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar, AnsibleEnvironment

case = json.load(sys.stdin)
out = []
for src in case['sources']:
    templar = Templar(loader=DataLoader(), variables=case['vars'])
    templar = templar.copy_with_new_env(environment_class=AnsibleEnvironment,
                                        trim_blocks=True, lstrip_blocks=False,
                                        available_variables=case['vars'])
    try:
        out.append(templar.do_template(src, preserve_trailing_newlines=True,
                                       escape_backslashes=False))
    except Exception as e:
        out.append({'error': '%s: %s' % (type(e).__name__, e)})
print(json.dumps(out))
