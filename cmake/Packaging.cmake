# Installation layout (FHS, as a Linux desktop expects it) and the Debian package.
include(GNUInstallDirs)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/lua/ DESTINATION ${CMAKE_INSTALL_DATADIR}/zsetlab/lua
        FILES_MATCHING PATTERN "*.lua")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/zsetlab/scenarios
        FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.zsetlab.zsetlab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.zsetlab.zsetlab.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
# Replay files (*.zsetreplay) open in zsetlab by double click.
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.zsetlab.zsetlab.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME org.zsetlab.zsetlab.xml)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/zsetlab.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME org.zsetlab.zsetlab.svg)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME zsetlab)
set(CPACK_PACKAGE_VENDOR "zsetlab")
set(CPACK_PACKAGE_CONTACT "zsetlab developers <zsetlab@users.noreply.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Watch a Redis ZSET rate limiter count wrong, live")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The packages of the libraries zsetlab links, as dpkg-shlibdeps reads them from the binaries: a
# package built on Debian 12 depends on Debian 12's (libhiredis0.14, libqt6core6), one built on
# Debian 13 on Debian 13's (libhiredis1.1.0, libqt6core6t64), each with the version it was built
# against. tests/packaging/check-deb.sh builds one and checks it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Stripped, as Debian packages are: the debug information is a build's, not a user's.
set(CPACK_STRIP_FILES ON)
# A private redis-server needs the binary; zsetlab also works with any Redis given by URL.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "redis-server")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-tools")
include(CPack)
