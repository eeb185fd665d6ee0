# ansible.builtin.lineinfile's own present() and absent() on sample cases,
# for tests/unit/test-lineinfile.c: reads a JSON list of cases on stdin
# ({text (null: no file), state, regexp, search_string, line, insertafter,
# insertbefore, backrefs, firstmatch}), prints a JSON list of {changed,
# msg, text, found} -- the module's answer and the file it would write
# (its diff's "after", in check mode) -- or {error: message} where the
# module fails or raises (a bad regular expression). Each case's file is
# in a temp dir; nothing else is touched.
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible.modules import lineinfile


class Done(Exception):
    pass


class Failed(Exception):
    pass


class FakeModule:
    def __init__(self):
        self.check_mode = True
        self._diff = True
        self.params = {'validate': None, 'unsafe_writes': False}

    def fail_json(self, **kwargs):
        raise Failed(kwargs.get('msg', ''))

    def exit_json(self, **kwargs):
        raise Done(kwargs)

    def warn(self, msg):
        pass

    def load_file_common_arguments(self, params):
        return {}

    def set_fs_attributes_if_different(self, args, changed, diff=None):
        return False


def run(case, top):
    path = os.path.join(top, 'f')
    if os.path.exists(path):
        os.unlink(path)
    if case['text'] is not None:
        with open(path, 'wb') as fh:
            fh.write(case['text'].encode())
    m = FakeModule()
    ia, ib = case['insertafter'], case['insertbefore']
    if ia is None and ib is None:
        ia = 'EOF'
    try:
        if case['state'] == 'present':
            lineinfile.present(m, path, case['regexp'],
                               case['search_string'], case['line'], ia, ib,
                               True, False, case['backrefs'],
                               case['firstmatch'])
        else:
            lineinfile.absent(m, path, case['regexp'],
                              case['search_string'], case['line'], False)
    except Done as e:
        r = e.args[0]
        diff = r.get('diff')
        if isinstance(diff, list):
            diff = diff[0]
        return dict(changed=r['changed'], msg=r['msg'],
                    text=diff['after'] if diff else None,
                    found=r.get('found', 0))
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
