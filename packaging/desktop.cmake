# Desktop integration: the desktop entry, the AppStream metainfo, the MIME types of the files
# Skewscope opens, and the icons (hicolor, scalable and the PNG sizes of icons/render.sh); and the
# tests that check them (appstreamcli, desktop-file-validate, Qt's reading of the MIME types).
set(SKEWSCOPE_IMAGES "https://raw.githubusercontent.com/skewscope/skewscope/main/docs/images")
set(_metainfo ${CMAKE_CURRENT_BINARY_DIR}/io.github.skewscope.skewscope.metainfo.xml)
configure_file(io.github.skewscope.skewscope.metainfo.xml.in ${_metainfo} @ONLY)
install(FILES ${_metainfo} DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES skewscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES skewscope-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME skewscope.xml)
install(FILES ${CMAKE_SOURCE_DIR}/resources/skewscope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(_size 16 22 24 32 48 64 128 256)
  install(FILES icons/${_size}x${_size}/skewscope.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${_size}x${_size}/apps)
endforeach()

if(SKEWSCOPE_BUILD_TESTS)
  enable_testing()
  add_test(NAME Package.MetainfoValid COMMAND appstreamcli validate --pedantic --no-net --explain ${_metainfo})
  # any remark at all (error, warning, info, pedantic) fails it
  set_tests_properties(Package.MetainfoValid PROPERTIES FAIL_REGULAR_EXPRESSION "(^|\n)[EWIP]: ")
  add_test(NAME Package.DesktopFileValid COMMAND desktop-file-validate ${CMAKE_CURRENT_SOURCE_DIR}/skewscope.desktop)
  add_executable(mime_probe tests/mime_probe.cpp)
  target_link_libraries(mime_probe PRIVATE Qt6::Core)
  add_test(NAME Package.MimeTypes COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/mime_types.sh $<TARGET_FILE:mime_probe>
           ${CMAKE_CURRENT_SOURCE_DIR}/skewscope-mime.xml ${CMAKE_SOURCE_DIR}/tests/data/real)
  set_tests_properties(Package.MetainfoValid Package.DesktopFileValid Package.MimeTypes PROPERTIES LABELS packaging)
endif()
