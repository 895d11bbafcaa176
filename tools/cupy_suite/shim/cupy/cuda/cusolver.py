"""cupy.cuda.cusolver as far as the suite's tests read it: the version, which they compare with
releases whose bugs they mark xfail. loom's eigensolvers have none of those bugs, so this
answers with a version before them (the tests then expect the right result)."""


def _getVersion():
    return (11, 0, 0)
