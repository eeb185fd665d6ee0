# ansible.builtin.blockinfile's own main() on sample cases, for
# tests/unit/test-blockinfile.c: reads a JSON list of cases on stdin
# ({text (null: no file), state, marker, marker_begin, marker_end, block,
# insertafter, insertbefore}), prints a JSON list of {changed, msg, text}
# -- the module's answer in check mode and the file it would write (its
# diff's "after") -- or {error: message}. Each case's file is in a temp
# dir; nothing else is touched.
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible.modules import blockinfile


class Done(Exception):
    pass


class Failed(Exception):
    pass


class FakeModule:
    params = None

    def __init__(self, **kwargs):
        self.params = dict(FakeModule.params)
        self.check_mode = True
        self._diff = True

    def boolean(self, v):
        return bool(v)

    def fail_json(self, **kwargs):
        raise Failed(kwargs.get('msg', ''))

    def exit_json(self, **kwargs):
        raise Done(kwargs)

    def load_file_common_arguments(self, params):
        return {}

    def set_file_attributes_if_different(self, args, changed, diff=None):
        return False


def run(case, top):
    path = os.path.join(top, 'f')
    if os.path.exists(path):
        os.unlink(path)
    if case['text'] is not None:
        with open(path, 'wb') as fh:
            fh.write(case['text'].encode())
    FakeModule.params = dict(path=path, state=case['state'],
                             marker=case['marker'],
                             marker_begin=case['marker_begin'],
                             marker_end=case['marker_end'],
                             block=case['block'],
                             insertafter=case['insertafter'],
                             insertbefore=case['insertbefore'],
                             create=True, backup=False, validate=None,
                             unsafe_writes=False)
    blockinfile.AnsibleModule = FakeModule
    try:
        blockinfile.main()
    except Done as e:
        r = e.args[0]
        diff = r.get('diff')
        if isinstance(diff, list):
            diff = diff[0]
        after = diff['after'] if diff else None
        if isinstance(after, bytes):
            after = after.decode()
        return dict(changed=r['changed'], msg=r['msg'], text=after)
    except Failed as e:
        return dict(error=str(e.args[0]))
    except Exception as e:
        return dict(error='%s: %s' % (type(e).__name__, e))
    return dict(error='no answer')


top = tempfile.mkdtemp()
try:
    print(json.dumps([run(c, top) for c in json.load(sys.stdin)]))
finally:
    shutil.rmtree(top)
