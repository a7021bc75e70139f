#pragma once

#include <QString>

// The source tree the tests read files from (scenarios, translations, the README, the doctor's
// corpus): ctest passes it as ZSETLAB_SOURCE_DIR; a test started by hand from a build folder
// inside the tree finds it above itself.
QString sourceTree();
// A file of the source tree, by its path from the top ("resources/scenarios/compare.json").
QString sourcePath(const QString& relative);
