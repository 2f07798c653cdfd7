# The manual page skewscope(1) and the bash and zsh completions, generated at build time by
# skewscope-docgen (packaging/docgen) from the text of skewscope --help, installed to the usual
# places; and the tests that they agree with --help.
add_executable(skewscope-docgen docgen/main.cpp docgen/usage_model.cpp docgen/man_page.cpp
               docgen/completions.cpp docgen/descriptions.cpp)
target_link_libraries(skewscope-docgen PRIVATE skewscope_cli)
set_target_properties(skewscope-docgen PROPERTIES AUTOMOC OFF RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set(_gen ${CMAKE_CURRENT_BINARY_DIR}/generated)
add_custom_command(OUTPUT ${_gen}/skewscope.1 ${_gen}/skewscope.1.gz ${_gen}/skewscope.bash ${_gen}/_skewscope
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_gen}
  COMMAND skewscope-docgen man ${PROJECT_VERSION} > ${_gen}/skewscope.1
  COMMAND gzip -9nc ${_gen}/skewscope.1 > ${_gen}/skewscope.1.gz
  COMMAND skewscope-docgen bash > ${_gen}/skewscope.bash
  COMMAND skewscope-docgen zsh > ${_gen}/_skewscope
  DEPENDS skewscope-docgen
  COMMENT "Generating the manual page and the shell completions from the help text")
add_custom_target(skewscope_docs ALL DEPENDS ${_gen}/skewscope.1.gz ${_gen}/skewscope.bash ${_gen}/_skewscope)
install(FILES ${_gen}/skewscope.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${_gen}/skewscope.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME skewscope)
install(FILES ${_gen}/_skewscope DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

if(SKEWSCOPE_BUILD_TESTS)
  enable_testing()
  foreach(_check man bash zsh)
    add_test(NAME Docs.${_check}AgreesWithHelp
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/docs_agree.sh ${_check} $<TARGET_FILE:skewscope> ${_gen})
    set_tests_properties(Docs.${_check}AgreesWithHelp PROPERTIES LABELS packaging)
  endforeach()
endif()
