# The packaging tests (label "packaging"; scripts/test.sh and CI run them with the rest): the
# package builds from the built tree, unpacks into a scratch root and runs from there, and lintian
# finds nothing; `--version` falls back cleanly outside a git checkout.
enable_testing()  # the root enables it after this folder is read
set(_pkg_dir ${CMAKE_BINARY_DIR}/package-test)
# the package is the ordinary build's (scripts/test.sh and test-locale.sh run these tests): a
# sanitizer build's binary (scripts/test-sanitizers.sh, build-asan/) is no package's
if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  add_test(NAME Package.Builds
    COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR} -DOUT=${_pkg_dir}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/build_package.cmake)
  set_tests_properties(Package.Builds PROPERTIES FIXTURES_SETUP package LABELS packaging)
  add_test(NAME Package.InstalledRuns
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/installed_runs.sh ${_pkg_dir} ${PROJECT_VERSION})
  add_test(NAME Package.LintianClean
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/lintian_clean.sh ${_pkg_dir})
  set_tests_properties(Package.InstalledRuns Package.LintianClean PROPERTIES FIXTURES_REQUIRED package LABELS packaging)
endif()
add_test(NAME Package.VersionWithoutGit
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tests/version_without_git.sh ${CMAKE_SOURCE_DIR}/app/build_version.cmake)
set_tests_properties(Package.VersionWithoutGit PROPERTIES LABELS packaging)
