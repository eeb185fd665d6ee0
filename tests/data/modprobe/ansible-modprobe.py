# community.general.modprobe's own code on sample cases, for
# tests/unit/test-modprobe.c: reads a JSON list of cases on stdin
# ({name, params, state, persistent, loaded, load: {file: text},
# opt: {file: text}}), prints a JSON list of {changed, load, opt} -- the
# module's "changed" and every file of the two directories after it ran --
# running main() in check mode with the two directories moved to a temp
# dir, modprobe answering 0 and module_loaded answering `loaded`. (The
# module's persistent step writes its files in check mode too, which is
# what lets this read them.) Nothing outside the temp dir is touched.
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, '/usr/lib/python3/dist-packages')
from ansible_collections.community.general.plugins.modules import modprobe


class Done(Exception):
    pass


class FakeModule:
    def __init__(self, params):
        self.params = params
        self.check_mode = True

    def get_bin_path(self, *args, **kwargs):
        return '/sbin/modprobe'

    def run_command(self, cmd, **kwargs):
        return (0, '', '')

    def warn(self, msg):
        pass

    def fail_json(self, **kwargs):
        raise RuntimeError(kwargs)

    def exit_json(self, **kwargs):
        raise Done(kwargs)


def files_of(d):
    out = {}
    for f in sorted(os.listdir(d)):
        with open(os.path.join(d, f), newline='') as fh:
            out[f] = fh.read()
    return out


def run(case, top):
    load = os.path.join(top, 'load')
    opt = os.path.join(top, 'opt')
    for d, files in ((load, case['load']), (opt, case['opt'])):
        os.mkdir(d)
        for f, text in files.items():
            with open(os.path.join(d, f), 'w', newline='') as fh:
                fh.write(text)
    modprobe.MODULES_LOAD_LOCATION = load
    modprobe.PARAMETERS_FILES_LOCATION = opt
    params = dict(name=case['name'], params=case['params'],
                  state=case['state'], persistent=case['persistent'])
    modprobe.build_module = lambda: FakeModule(params)
    modprobe.Modprobe.module_loaded = lambda self: case['loaded']
    try:
        modprobe.main()
    except Done as e:
        result = e.args[0]
    out = dict(changed=result['changed'], load=files_of(load),
               opt=files_of(opt))
    shutil.rmtree(load)
    shutil.rmtree(opt)
    return out


top = tempfile.mkdtemp()
try:
    print(json.dumps([run(c, top) for c in json.load(sys.stdin)]))
finally:
    shutil.rmtree(top)
