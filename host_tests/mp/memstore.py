"""The store interface over a dict (no files), with problems like the flash store's: for the
scenes, the tests and the benchmark workloads (small, so it hardly weighs in a heap figure)."""


class MemStore:
    """The store interface over a dict (no files), with problems like the flash store's."""

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.problems = []

    def read(self, name):
        return self.files.get(name)

    def write(self, name, data):
        self.files[name] = bytes(data)
        return True

    def take_problems(self):
        p = self.problems
        self.problems = []
        return p
