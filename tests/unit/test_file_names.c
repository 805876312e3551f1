/* region_file_name: a file reached by two paths ("hdr/vec.h" and
 * "sub/../hdr/vec.h") gets one name, unless the shorter name is another file
 * (a symbolic link on the way) or none. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* A fresh directory to work in: hdr/vec.h, sub/, elsewhere/deep/ and a link
 * "jump" to elsewhere/deep (so "jump/.." is elsewhere, not the directory). */
static char tree[] = "/tmp/pomp-names-XXXXXX";

static void enter_tree(void)
{
    cr_assert_not_null(mkdtemp(tree));
    cr_assert_eq(chdir(tree), 0);
    cr_assert_eq(mkdir("hdr", 0700), 0);
    cr_assert_eq(mkdir("sub", 0700), 0);
    cr_assert_eq(mkdir("elsewhere", 0700), 0);
    cr_assert_eq(mkdir("elsewhere/deep", 0700), 0);
    cr_assert_eq(mkdir("elsewhere/hdr", 0700), 0);
    FILE *f = fopen("hdr/vec.h", "w");
    cr_assert_not_null(f);
    fclose(f);
    f = fopen("elsewhere/hdr/vec.h", "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(symlink("elsewhere/deep", "jump"), 0);
}

static void leave_tree(void)
{
    char *rm = NULL;
    if (asprintf(&rm, "rm -rf '%s'", tree) > 0 && system(rm) != 0)
        cr_log_warn("%s failed", rm);
    free(rm);
}

static void expect(const char *name, const char *want)
{
    char *got = region_file_name(name);
    cr_expect_str_eq(got, want, "%s", name);
    free(got);
}

Test(file_names, two_paths_to_one_file_get_the_shorter_name, .init = enter_tree, .fini = leave_tree)
{
    expect("sub/../hdr/vec.h", "hdr/vec.h");
    expect("./hdr/./vec.h", "hdr/vec.h");
    expect("hdr//vec.h", "hdr//vec.h"); /* nothing to take out that changes the file */
    expect("hdr/vec.h", "hdr/vec.h");
}

Test(file_names, a_symbolic_link_keeps_the_name_as_written, .init = enter_tree, .fini = leave_tree)
{
    /* jump/.. is elsewhere: jump/../hdr/vec.h is elsewhere/hdr/vec.h, not hdr/vec.h */
    expect("jump/../hdr/vec.h", "jump/../hdr/vec.h");
}

Test(file_names, a_name_for_no_file_is_left_alone, .init = enter_tree, .fini = leave_tree)
{
    expect("nowhere/../hdr/missing.h", "nowhere/../hdr/missing.h");
    expect("../outside.h", "../outside.h");
    expect("<built-in>", "<built-in>");
}

Test(file_names, an_absolute_name_below_the_directory_is_relative, .init = enter_tree,
     .fini = leave_tree)
{
    char cwd[4096], *abs = NULL, *abs_dots = NULL;
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert(asprintf(&abs, "%s/hdr/vec.h", cwd) > 0);
    cr_assert(asprintf(&abs_dots, "%s/sub/../hdr/vec.h", cwd) > 0);
    expect(abs, "hdr/vec.h");      /* -I$PWD/hdr and -Ihdr: one name */
    expect(abs_dots, "hdr/vec.h");
    expect("/usr/include/stdio.h", "/usr/include/stdio.h"); /* not below it */
    free(abs), free(abs_dots);
}
