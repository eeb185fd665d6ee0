# ansible.builtin.systemd's own main() on sample unit states, for
# tests/unit/test-systemd.c: reads a JSON list of cases on stdin ({load,
# active, enabled_rc, state, enabled (null: not asked)}), prints a JSON
# list of {changed, enabled, state, ran} -- the module's answer in check
# mode and the systemctl commands it ran -- or {error: message}. systemctl
# is never run: run_command answers from the case.
import json
import sys

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible.modules import systemd


class Done(Exception):
    pass


class Failed(Exception):
    pass


class FakeModule:
    case = None

    def __init__(self, **kwargs):
        c = FakeModule.case
        self.params = dict(name='tcptune-test.service', state=c['state'],
                           enabled=c['enabled'], force=None, masked=None,
                           daemon_reload=False, daemon_reexec=False,
                           scope='system', no_block=False)
        self.check_mode = True
        self.ran = []

    def get_bin_path(self, *a, **k):
        return '/bin/systemctl'

    def run_command(self, cmd, **k):
        c = FakeModule.case
        self.ran.append(cmd)
        if " show " in cmd:
            return (0, 'LoadState=%s\nActiveState=%s\n' % (c['load'],
                    c['active']), '')
        if 'is-enabled' in cmd:
            return (c['enabled_rc'], 'enabled' if c['enabled_rc'] == 0
                    else 'disabled', '')
        return (0, '', '')

    def fail_json(self, **kwargs):
        raise Failed(kwargs.get('msg', ''))

    def exit_json(self, **kwargs):
        raise Done(kwargs)

    def warn(self, msg):
        pass


def run(case):
    FakeModule.case = case
    systemd.AnsibleModule = FakeModule
    systemd.sysv_exists = lambda unit: False
    systemd.is_chroot = lambda module: False
    try:
        systemd.main()
    except Done as e:
        r = e.args[0]
        return dict(changed=r['changed'], enabled=r.get('enabled'),
                    state=r.get('state'))
    except Failed as e:
        return dict(error=str(e.args[0]))
    return dict(error='no answer')


print(json.dumps([run(c) for c in json.load(sys.stdin)]))
