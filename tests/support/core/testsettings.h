#pragma once

// Settings of a test program: the window's QSettings (language, layout, lesson options) go to a
// folder of this run, removed when the program ends. Test programs run side by side under ctest -j
// (the three screenfit entries are one program), so a shared settings file would let one clear or
// overwrite what another has just saved; and no test may write the user's own settings.
namespace TestSettings {
// Call first in initTestCase(), before any window reads its settings.
void keepToThisRun();
} // namespace TestSettings
