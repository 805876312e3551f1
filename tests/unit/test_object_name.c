/* Data objects named from their address (pomp_object_name): the program's
 * own objects, which only its .symtab holds, global and static; an address
 * inside an object or outside any names none. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "pomp_object_name.h"

long pomp_test_global_object[4];
static volatile double pomp_test_static_object = 1.0;

Test(object_name, global_object_of_the_executable)
{
    char name[64];
    cr_assert(pomp_object_name((uintptr_t)pomp_test_global_object, name, sizeof name));
    cr_assert_str_eq(name, "pomp_test_global_object");
}

Test(object_name, static_object_of_the_executable)
{
    char name[64];
    cr_assert(pomp_object_name((uintptr_t)&pomp_test_static_object, name, sizeof name));
    cr_assert_str_eq(name, "pomp_test_static_object");
}

Test(object_name, no_name_inside_an_object_or_outside_any)
{
    char name[64];
    cr_assert_not(pomp_object_name((uintptr_t)&pomp_test_global_object[1], name, sizeof name));
    cr_assert_not(pomp_object_name(0, name, sizeof name));
    long on_the_stack = 0;
    cr_assert_not(pomp_object_name((uintptr_t)&on_the_stack, name, sizeof name));
}

Test(object_name, cut_to_fit)
{
    char name[8];
    cr_assert(pomp_object_name((uintptr_t)pomp_test_global_object, name, sizeof name));
    cr_assert_str_eq(name, "pomp_te");
}
