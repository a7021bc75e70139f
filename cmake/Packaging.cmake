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
# The Debian 12 packages of what zsetlab links (Qt 6.4, Qt Charts, Qt SVG, hiredis 0.14, OpenSSL 3).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6charts6 (>= 6.4), libqt6svg6 (>= 6.4), libhiredis0.14, libssl3, zlib1g, libavcodec59, libavformat59, libavfilter8, libswscale6, libavutil57, libc6, libstdc++6")
# A private redis-server needs the binary; zsetlab also works with any Redis given by URL.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "redis-server")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-tools")
include(CPack)
