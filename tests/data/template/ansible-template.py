# Ansible's own Jinja2 templating on sample cases, for
# tests/unit/test-template-ansible.c: reads a JSON list of cases on stdin
# ({src, vars[, playbook]}), prints a JSON list of {out} (the rendered text)
# or {error} (the exception's type), rendering each as Ansible's template
# module does: its Templar (trim_blocks, trailing newlines kept), with vars
# as the task's variables; a case with "playbook": true as a task's string
# is rendered (escape_backslashes on: backslashes of the string literals
# inside {{ }} doubled first). Touches nothing.
import json
import sys

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible.parsing.dataloader import DataLoader
from ansible.template import Templar


def run(case):
    templar = Templar(loader=DataLoader(), variables=case['vars'])
    try:
        out = templar.do_template(case['src'],
                                  preserve_trailing_newlines=True,
                                  escape_backslashes=case.get(
                                      'playbook', False))
        return dict(out=str(out))
    except Exception as e:  # the kind of failure is what is compared
        return dict(error=type(e).__name__)


print(json.dumps([run(c) for c in json.load(sys.stdin)]))
