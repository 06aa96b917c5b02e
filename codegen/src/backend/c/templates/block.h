{%- import "accessors.h" as acc -%}
/* {{ banner }} */
/* {{ block.comment }} */
/* Register offsets, the instances' base addresses and static inline accessors taking the block's
 * base address (volatile accesses, a 64-bit register on a narrower bus as two 32-bit halves,
 * lowest address first). The fields of the values are in layouts.h. */
#ifndef {{ guard }}
#define {{ guard }}

#include <stdint.h>
#include "layouts.h"

#define {{ block.name }}_SIZE {{ block.size }}
{%- for i in block.instances %}

/* {{ i.comment }} */
#define {{ i.name }}_BASE {{ i.base }}
{%- for irq in i.irqs %}
#define {{ irq.name }} {{ irq.value }}{% if irq.comment %} /* {{ irq.comment }} */{% endif %}
{%- endfor %}
{%- endfor %}
{% for a in block.registers %}
{{ acc.defines(a) }}
{{- acc.functions(a) }}
{% endfor %}
#endif /* {{ guard }} */
