# What `cmake --install build --prefix P` puts where (included from the top
# CMakeLists.txt, after the apps):
#   P/bin/bwsurvey, P/bin/bwreport
#   P/share/bwsurvey/jobs/        the Slurm scripts (executable)
#   P/share/bwsurvey/analysis/    bwreport plot's Python (found relative to bin/)
#   P/share/doc/bwsurvey/         README.md, LICENSE, docs/*.md, docs/images/ (as in the source tree)
#   P/share/man/man1/             bwsurvey.1, bwreport.1 (help2man, at build time)
#   P/share/bwsurvey/modulefiles/bwsurvey/<version>.lua   an Lmod module file for P
# The installed tree stands alone: nothing in it points into the source or
# build tree (an installed bwreport looks for analysis/ only beside itself).
include(GNUInstallDirs)

install(TARGETS bwsurvey bwreport RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(BWS_EXECUTABLE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                               WORLD_READ WORLD_EXECUTE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/jobs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/bwsurvey/jobs
        FILE_PERMISSIONS ${BWS_EXECUTABLE_PERMISSIONS})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/analysis/ DESTINATION ${CMAKE_INSTALL_DATADIR}/bwsurvey/analysis
        PATTERN "__pycache__" EXCLUDE PATTERN "*.pyc" EXCLUDE)

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# docs/ keeps its name, so the README's links (docs/images/...) still work.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md" PATTERN "images/*")

# Man pages from the built programs' --help and --version (both answer
# without MPI). Without help2man the tools build and install without them.
find_program(BWS_HELP2MAN help2man)
if(BWS_HELP2MAN AND EXISTS "${BWS_HELP2MAN}")
  set(BWS_MAN_PAGES ON)
  set(BWS_MAN_DIR ${PROJECT_BINARY_DIR}/man/man1)
  file(MAKE_DIRECTORY ${BWS_MAN_DIR})
  set(BWS_MAN_NAME_bwsurvey "measure the memory and interconnect bandwidth of every node of a cluster")
  set(BWS_MAN_NAME_bwreport "analyse, export and plot bwsurvey result files")
  set(BWS_MAN_FILES "")
  foreach(tool bwsurvey bwreport)
    add_custom_command(OUTPUT ${BWS_MAN_DIR}/${tool}.1
      COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
              ${BWS_HELP2MAN} --no-info -N --section=1 "--name=${BWS_MAN_NAME_${tool}}"
              --output=${BWS_MAN_DIR}/${tool}.1 $<TARGET_FILE:${tool}>
      DEPENDS ${tool}
      COMMENT "help2man: ${tool}.1"
      VERBATIM)
    list(APPEND BWS_MAN_FILES ${BWS_MAN_DIR}/${tool}.1)
  endforeach()
  add_custom_target(bws_man_pages ALL DEPENDS ${BWS_MAN_FILES})
  install(FILES ${BWS_MAN_FILES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  set(BWS_MAN_PAGES OFF)
  message(STATUS "bwsurvey: help2man not found: no man pages are built or installed "
                 "(apt-get install help2man, or scripts/install-deps.sh --core)")
endif()

# An Lmod module file for the prefix the tree is installed to (the --prefix
# of `cmake --install`, known only then): written at install time.
set(BWS_MODULEFILE_TEMPLATE ${PROJECT_SOURCE_DIR}/cmake/bwsurvey-modulefile.lua.in)
install(CODE "
  set(BWS_VERSION \"${PROJECT_VERSION}\")
  set(BWS_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(BWS_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(BWS_MANDIR \"${CMAKE_INSTALL_MANDIR}\")
  set(BWS_DATADIR \"${CMAKE_INSTALL_DATADIR}\")
  configure_file(\"${BWS_MODULEFILE_TEMPLATE}\" \"${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION}.lua\" @ONLY)
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/bwsurvey/modulefiles/bwsurvey\"
       TYPE FILE FILES \"${PROJECT_BINARY_DIR}/modulefile/${PROJECT_VERSION}.lua\")
")
