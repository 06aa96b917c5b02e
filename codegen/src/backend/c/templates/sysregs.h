{%- import "accessors.h" as acc -%}
/* {{ banner }} */
/* {{ what }} of {{ crate }}: each register's encoding, and static inline accessors that are one
 * instruction each where the target has it ({{ arch }}); elsewhere only the macros exist.
 * The fields of the values are in layouts.h. */
#ifndef {{ guard }}
#define {{ guard }}

#include <stdint.h>
#include "layouts.h"
{% for a in registers %}
{{ acc.defines(a) }}
{%- endfor %}

#if {{ arch }}
{%- for a in registers %}
{{ acc.functions(a) }}
{%- endfor %}
#endif /* {{ arch }} */

#endif /* {{ guard }} */
