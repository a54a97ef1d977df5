# GmemCUDA.cmake - build CUDA programs with gmem-clang++ (docs/DRIVER.md).
#
#   include(/path/to/gmem/cmake/GmemCUDA.cmake)
#
#   gmem_add_cuda_executable(<name> SOURCES <files...>
#       [ARCHS sm_90 ...]            GPU archs (default: GMEM_CUDA_ARCHS, sm_90)
#       [CUDA_OPTIONS <flags...>]    extra driver flags for the .cu files
#       [INCLUDE_DIRECTORIES <dirs...>] [COMPILE_DEFINITIONS <defs...>]
#       [LINK_LIBRARIES <libs...>]
#       [STATIC_CUDART]              link libcudart_static.a
#       [GMEM_RUNTIME ON|OFF|AUTO]   link libgmemrt (default AUTO: when it exists)
#       [NO_GMEM])                   compile without the gmem plugin
#
#   gmem_add_cuda_library(<name> STATIC|SHARED SOURCES <files...> [same options])
#
#   gmem_target_cuda_sources(<target> SOURCES <.cu files...> [ARCHS ...]
#       [CUDA_OPTIONS ...] [NO_GMEM])   add .cu files to an existing target
#
# .cu files are compiled by the driver (custom commands, one object each,
# with a dependency file, so header changes rebuild them); every other
# source is compiled by the project's C/C++ compiler with the CUDA include
# directory added. The target is a normal CMake executable/library, linked
# by the project's linker with libcudart (shared, with an rpath, unless
# STATIC_CUDART) plus dl/pthread/rt, and with libgmemrt first when the gmem
# runtime is linked. The .cu compiles see the target's INCLUDE_DIRECTORIES
# and COMPILE_DEFINITIONS (including those of linked targets), its
# CXX_STANDARD, -fPIC for shared libraries / POSITION_INDEPENDENT_CODE, and
# CMAKE_CXX_FLAGS + CMAKE_CXX_FLAGS_<CONFIG>; not its COMPILE_OPTIONS (they
# may be meant for another compiler): put driver flags in CUDA_OPTIONS or the
# GMEM_CUDA_FLAGS variable.
#
# Variables (cache): GMEM_CLANG_DRIVER (path of gmem-clang++; found next to
# this file's gmem build/install, else on PATH), GMEM_CUDA_ARCHS (default
# sm_90), GMEM_CUDA_FLAGS (extra driver flags for every .cu),
# GMEM_CUDA_RUNTIME (AUTO|ON|OFF, default for GMEM_RUNTIME).
# Needs CMake 3.20 (DEPFILE with Makefile generators).

cmake_minimum_required(VERSION 3.20)
include_guard(GLOBAL)

set(_GMEM_CUDA_LIST_DIR "${CMAKE_CURRENT_LIST_DIR}")

set(GMEM_CUDA_ARCHS "sm_90" CACHE STRING "GPU archs for .cu files built with gmem-clang++")
set(GMEM_CUDA_FLAGS "" CACHE STRING "Extra gmem-clang++ flags for every .cu file")
set(GMEM_CUDA_RUNTIME "AUTO" CACHE STRING "Link gmem's runtime (libgmemrt): AUTO, ON or OFF")

# Finds the driver and asks it for its toolchain (gmem-clang++ --gmem-config).
function(_gmem_cuda_init)
  get_property(done GLOBAL PROPERTY _GMEM_CUDA_INIT_DONE)
  if(done)
    return()
  endif()
  if(NOT GMEM_CLANG_DRIVER)
    find_program(GMEM_CLANG_DRIVER gmem-clang++
      HINTS "${CMAKE_BINARY_DIR}/bin"                  # inside gmem's own build
            "${_GMEM_CUDA_LIST_DIR}/../../../bin"      # installed: <prefix>/lib/cmake/gmem
            "${_GMEM_CUDA_LIST_DIR}/../build/bin"      # gmem source tree, built in build/
      NO_DEFAULT_PATH)
    find_program(GMEM_CLANG_DRIVER gmem-clang++)
  endif()
  if(NOT GMEM_CLANG_DRIVER OR NOT EXISTS "${GMEM_CLANG_DRIVER}")
    message(FATAL_ERROR "GmemCUDA: gmem-clang++ not found; build gmem or set GMEM_CLANG_DRIVER")
  endif()
  execute_process(COMMAND "${GMEM_CLANG_DRIVER}" --gmem-config
    OUTPUT_VARIABLE cfg ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REPLACE "\n" ";" cfg_lines "${cfg}")
  foreach(line IN LISTS cfg_lines)
    if(line MATCHES "^([a-z_]+)=(.*)$")
      set_property(GLOBAL PROPERTY _GMEM_CUDA_CFG_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  get_property(libdir GLOBAL PROPERTY _GMEM_CUDA_CFG_cudart_libdir)
  get_property(cuda GLOBAL PROPERTY _GMEM_CUDA_CFG_cuda)
  if(NOT libdir OR libdir MATCHES "^\\(" OR NOT cuda OR cuda MATCHES "^\\(")
    message(FATAL_ERROR "GmemCUDA: '${GMEM_CLANG_DRIVER} --gmem-config' found no usable CUDA:\n${cfg}${err}")
  endif()
  get_property(plugin GLOBAL PROPERTY _GMEM_CUDA_CFG_plugin)
  if(plugin MATCHES "^\\(error" AND NOT TARGET GmemPlugin)
    message(WARNING "GmemCUDA: gmem plugin not found yet (${plugin}); .cu builds will fail "
                    "until it is built (or use NO_GMEM)")
  endif()
  message(STATUS "GmemCUDA: ${GMEM_CLANG_DRIVER} (CUDA at ${cuda})")
  set_property(GLOBAL PROPERTY _GMEM_CUDA_INIT_DONE TRUE)
endfunction()

function(_gmem_cfg out key)
  get_property(v GLOBAL PROPERTY _GMEM_CUDA_CFG_${key})
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# gmem_target_cuda_sources(<target> SOURCES ... [ARCHS ...] [CUDA_OPTIONS ...] [NO_GMEM])
function(gmem_target_cuda_sources target)
  cmake_parse_arguments(G "NO_GMEM" "" "SOURCES;ARCHS;CUDA_OPTIONS" ${ARGN})
  _gmem_cuda_init()
  if(NOT G_ARCHS)
    set(G_ARCHS ${GMEM_CUDA_ARCHS})
  endif()
  set(arch_flags "")
  foreach(a IN LISTS G_ARCHS)
    list(APPEND arch_flags "--cuda-gpu-arch=${a}")
  endforeach()
  separate_arguments(global_flags UNIX_COMMAND "${GMEM_CUDA_FLAGS} ${CMAKE_CXX_FLAGS}")
  # Per-configuration flags (-O3 -DNDEBUG for Release, ...).
  set(cfg_flags "")
  if(CMAKE_CONFIGURATION_TYPES)
    set(configs ${CMAKE_CONFIGURATION_TYPES})
  else()
    set(configs ${CMAKE_BUILD_TYPE})
  endif()
  foreach(c IN LISTS configs)
    string(TOUPPER "${c}" C)
    separate_arguments(f UNIX_COMMAND "${CMAKE_CXX_FLAGS_${C}}")
    if(f)
      list(JOIN f "$<SEMICOLON>" fj)
      list(APPEND cfg_flags "$<$<CONFIG:${c}>:${fj}>")
    endif()
  endforeach()
  set(gmem_flags "")
  if(G_NO_GMEM)
    set(gmem_flags --no-gmem)
  endif()

  set(inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(std "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(type "$<TARGET_PROPERTY:${target},TYPE>")
  set(pic "$<OR:$<BOOL:$<TARGET_PROPERTY:${target},POSITION_INDEPENDENT_CODE>>,$<STREQUAL:${type},SHARED_LIBRARY>,$<STREQUAL:${type},MODULE_LIBRARY>>")

  set(deps "${GMEM_CLANG_DRIVER}")
  if(TARGET GmemPlugin AND NOT G_NO_GMEM)
    list(APPEND deps GmemPlugin "$<TARGET_FILE:GmemPlugin>")
  endif()

  foreach(src IN LISTS G_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    if(rel MATCHES "^\\.\\./")
      # Outside the source directory: <hash of its directory>/<file name>.
      get_filename_component(dir "${abs}" DIRECTORY)
      get_filename_component(name "${abs}" NAME)
      string(MD5 h "${dir}")
      string(SUBSTRING "${h}" 0 8 h)
      set(rel "ext-${h}/${name}")
    endif()
    string(REGEX REPLACE "[^A-Za-z0-9_./+-]" "_" rel "${rel}")
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.gmem/${rel}.o")
    get_filename_component(objdir "${obj}" DIRECTORY)
    file(MAKE_DIRECTORY "${objdir}")
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND "${GMEM_CLANG_DRIVER}" -c "${abs}" -o "${obj}" -MD -MF "${obj}.d"
              ${arch_flags} ${gmem_flags} ${global_flags} ${cfg_flags}
              "$<$<BOOL:${std}>:-std=c++${std}>"
              "$<${pic}:-fPIC>"
              "$<$<BOOL:${inc}>:-I$<JOIN:${inc},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
              ${G_CUDA_OPTIONS}
      DEPENDS "${abs}" ${deps}
      DEPFILE "${obj}.d"
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "gmem-clang++ ${rel}"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${target} PRIVATE "${obj}")
  endforeach()
  if(TARGET GmemPlugin AND NOT G_NO_GMEM)
    add_dependencies(${target} GmemPlugin)
  endif()
endfunction()

# Link usage: CUDA include dir for C/C++ sources, libgmemrt (first), libcudart.
function(_gmem_cuda_link target scope static_cudart runtime)
  _gmem_cfg(cuda cuda)
  _gmem_cfg(libdir cudart_libdir)
  # CUDA headers for the C/C++ sources (the .cu compiles get them from clang;
  # compile options are not passed to the driver, so they stay out of those).
  target_compile_options(${target} ${scope} "$<$<COMPILE_LANGUAGE:C,CXX>:-isystem${cuda}/include>")

  if(NOT runtime)
    set(runtime "${GMEM_CUDA_RUNTIME}")
  endif()
  string(TOUPPER "${runtime}" runtime)
  if(NOT runtime STREQUAL "OFF")
    _gmem_cfg(rt runtime)
    set(rtlib "")
    if(TARGET gmemrt)
      set(rtlib "$<TARGET_FILE:gmemrt>")
      set(rtdir "$<TARGET_FILE_DIR:gmemrt>")
      add_dependencies(${target} gmemrt)
    elseif(rt AND NOT rt MATCHES "^\\(")
      set(rtlib "${rt}")
      get_filename_component(rtdir "${rt}" DIRECTORY)
    elseif(runtime STREQUAL "ON")
      message(FATAL_ERROR "GmemCUDA: ${target}: GMEM_RUNTIME ON but libgmemrt.so not found (${rt})")
    endif()
    if(rtlib)
      # First, and kept even if the program calls nothing in it directly:
      # its definitions must come before libcudart's in symbol lookup.
      target_link_options(${target} BEFORE ${scope}
        "LINKER:--push-state,--no-as-needed" "${rtlib}" "LINKER:--pop-state"
        "LINKER:-rpath,${rtdir}")
    endif()
  endif()

  if(static_cudart)
    target_link_libraries(${target} ${scope} "${libdir}/libcudart_static.a" dl pthread rt)
  else()
    # CMake gives a library linked by full path a build-tree rpath.
    target_link_libraries(${target} ${scope} "${libdir}/libcudart.so" dl pthread rt)
  endif()
endfunction()

function(_gmem_split_sources cu other)
  set(c "")
  set(o "")
  foreach(s IN LISTS ARGN)
    if(s MATCHES "\\.cu$")
      list(APPEND c "${s}")
    else()
      list(APPEND o "${s}")
    endif()
  endforeach()
  set(${cu} "${c}" PARENT_SCOPE)
  set(${other} "${o}" PARENT_SCOPE)
endfunction()

set(_GMEM_CUDA_OPTS NO_GMEM STATIC_CUDART)
set(_GMEM_CUDA_ONE GMEM_RUNTIME)
set(_GMEM_CUDA_MULTI SOURCES ARCHS CUDA_OPTIONS INCLUDE_DIRECTORIES COMPILE_DEFINITIONS LINK_LIBRARIES)

function(_gmem_cuda_common target scope)
  cmake_parse_arguments(G "${_GMEM_CUDA_OPTS}" "${_GMEM_CUDA_ONE}" "${_GMEM_CUDA_MULTI}" ${ARGN})
  _gmem_split_sources(cu other ${G_SOURCES})
  if(G_INCLUDE_DIRECTORIES)
    target_include_directories(${target} PRIVATE ${G_INCLUDE_DIRECTORIES})
  endif()
  if(G_COMPILE_DEFINITIONS)
    target_compile_definitions(${target} PRIVATE ${G_COMPILE_DEFINITIONS})
  endif()
  set(pass "")
  if(G_NO_GMEM)
    list(APPEND pass NO_GMEM)
  endif()
  if(cu)
    gmem_target_cuda_sources(${target} SOURCES ${cu} ARCHS ${G_ARCHS}
                             CUDA_OPTIONS ${G_CUDA_OPTIONS} ${pass})
  endif()
  if(G_LINK_LIBRARIES)
    target_link_libraries(${target} ${scope} ${G_LINK_LIBRARIES})
  endif()
  _gmem_cuda_link(${target} ${scope} "${G_STATIC_CUDART}" "${G_GMEM_RUNTIME}")
endfunction()

function(gmem_add_cuda_executable name)
  cmake_parse_arguments(G "${_GMEM_CUDA_OPTS}" "${_GMEM_CUDA_ONE}" "${_GMEM_CUDA_MULTI}" ${ARGN})
  if(NOT G_SOURCES)
    message(FATAL_ERROR "gmem_add_cuda_executable(${name}): no SOURCES")
  endif()
  _gmem_cuda_init()
  _gmem_split_sources(cu other ${G_SOURCES})
  add_executable(${name} ${other})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  _gmem_cuda_common(${name} PRIVATE ${ARGN})
endfunction()

function(gmem_add_cuda_library name kind)
  if(NOT kind MATCHES "^(STATIC|SHARED)$")
    message(FATAL_ERROR "gmem_add_cuda_library(${name} ${kind}): expected STATIC or SHARED")
  endif()
  cmake_parse_arguments(G "${_GMEM_CUDA_OPTS}" "${_GMEM_CUDA_ONE}" "${_GMEM_CUDA_MULTI}" ${ARGN})
  if(NOT G_SOURCES)
    message(FATAL_ERROR "gmem_add_cuda_library(${name}): no SOURCES")
  endif()
  _gmem_cuda_init()
  _gmem_split_sources(cu other ${G_SOURCES})
  add_library(${name} ${kind} ${other})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  if(kind STREQUAL "STATIC")
    _gmem_cuda_common(${name} PUBLIC ${ARGN})
  else()
    _gmem_cuda_common(${name} PRIVATE ${ARGN})
  endif()
endfunction()
