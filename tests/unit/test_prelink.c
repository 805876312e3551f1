/* The pre-linker: which nm lines count, and the generated file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prelink.h"

static const char nm_output[] =
    "libwork.a[work.o]:\n"
    "POMP_Init_00ab12 T 0000000000000000 0000000000000042\n"
    "work T 0000000000000050 0000000000000100\n"
    "\n"
    "libwork.a[more.o]:\n"
    "POMP_Init_ffee99 T 0000000000000000 0000000000000042\n"
    "POMP_Get_handle U\n"
    "POMP_Init_00ab12 T 0000000000000000 0000000000000042\n"
    "POMP_Init_Handles T 0000000000000000 0000000000000010\n"
    "POMP_Init_data D 0000000000000000 0000000000000004\n"
    "POMP_Init_bad-name T 0000000000000000 0000000000000004\n"
    "POMP_Init_ T 0000000000000000 0000000000000004\n";

Test(prelink, collects_defined_init_functions_once)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    cr_assert_eq(n.count, 2);
    cr_assert_str_eq(n.names[0], "POMP_Init_00ab12");
    cr_assert_str_eq(n.names[1], "POMP_Init_ffee99");
    prelink_free(&n);
}

Test(prelink, writes_init_handles)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(prelink_write(&n, 0, f), 0);
    fclose(f);
    cr_assert(strstr(buf, "extern void POMP_Init_00ab12(void);") != NULL);
    cr_assert(strstr(buf, "void POMP_Init_Handles(void)\n{\n    POMP_Init_00ab12();\n    POMP_Init_ffee99();\n}\n") != NULL, "%s", buf);
    cr_assert(strstr(buf, "POMP_Constructs_left_to_runtime") == NULL, "%s", buf);
    free(buf);
    prelink_free(&n);
}

/* A link whose objects left constructs to the runtime says so to libpomp. */
Test(prelink, flags_constructs_left_to_the_runtime)
{
    struct prelink_names n = {0};
    prelink_collect(&n, nm_output);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(prelink_write(&n, 1, f), 0);
    fclose(f);
    cr_assert(strstr(buf, "const int POMP_Constructs_left_to_runtime = 1;") != NULL, "%s", buf);
    free(buf);
    prelink_free(&n);
}

Test(prelink, no_objects_gives_an_empty_function)
{
    struct prelink_names n = {0};
    prelink_collect(&n, "");
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    prelink_write(&n, 0, f);
    fclose(f);
    cr_assert(strstr(buf, "void POMP_Init_Handles(void)\n{\n}\n") != NULL);
    free(buf);
}
