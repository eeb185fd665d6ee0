# Ansible's own ansible.posix.sysctl logic on sample cases, for
# tests/unit/test-sysctlconf.c: reads a JSON list of cases on stdin
# ({text|null, name, value|null, state, reload, sysctl_set, proc|null}),
# prints a JSON list of {text, fv, changed, write, set} -- the file the
# module would write, the key's value in the file, and its decisions --
# running the module class in check mode with `sysctl -e -n` answering
# proc (null: it failed). Nothing outside a temp dir is touched.
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible_collections.ansible.posix.plugins.modules import sysctl


class FakeModule:
    def __init__(self, params, proc):
        self.params = params
        self.check_mode = True
        self.proc = proc

    def get_bin_path(self, *args, **kwargs):
        return '/sbin/sysctl'

    def run_command(self, cmd, **kwargs):
        if self.proc is None:
            return (1, '', 'sysctl: cannot stat')
        return (0, self.proc, '')

    def fail_json(self, **kwargs):
        raise RuntimeError(kwargs)


def run(case, d):
    path = os.path.join(d, 'sysctl.conf')
    if os.path.exists(path):
        os.unlink(path)
    if case['text'] is not None:
        with open(path, 'w', newline='') as f:
            f.write(case['text'])
    params = dict(name=case['name'], value=case['value'],
                  state=case['state'], reload=case['reload'],
                  sysctl_set=case['sysctl_set'], ignoreerrors=False,
                  sysctl_file=path)
    s = sysctl.SysctlModule(FakeModule(params, case['proc']))
    return dict(text=''.join(l.strip() + '\n' for l in s.fixed_lines),
                fv=s.file_values[params['name']], changed=s.changed,
                write=s.write_file, set=s.set_proc)


d = tempfile.mkdtemp()
try:
    print(json.dumps([run(c, d) for c in json.load(sys.stdin)]))
finally:
    shutil.rmtree(d)
