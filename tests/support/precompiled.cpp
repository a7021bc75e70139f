// Compiles the tests' precompiled headers (tests/CMakeLists.txt, zsetlab_add_test): nothing else.
