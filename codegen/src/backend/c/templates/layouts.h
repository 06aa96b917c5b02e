/* {{ banner }} */
/* Register layouts of {{ crate }}: for each field its shift, width and mask (in place), GET and
 * PREP helpers and its enumerated values; for each layout its reserved bits and reset value.
 * One layout serves every access path that reaches it (see the other headers). */
#ifndef {{ guard }}
#define {{ guard }}

#include <stdint.h>
{% for l in layouts %}
/* {{ l.comment }} */
#define {{ l.name }}_WIDTH {{ l.width }}u
#define {{ l.name }}_RES0 {{ l.res0 }}
#define {{ l.name }}_RES1 {{ l.res1 }}
{%- if l.reset %}
#define {{ l.name }}_RESET {{ l.reset }}
{%- endif %}
{%- for f in l.fields %}
/* {{ f.comment }} */
#define {{ f.name }}_SHIFT {{ f.shift }}u
#define {{ f.name }}_WIDTH {{ f.width }}u
#define {{ f.name }}_MASK {{ f.mask }}
#define {{ f.name }}_GET(v) (((v) & {{ f.name }}_MASK) >> {{ f.name }}_SHIFT)
#define {{ f.name }}_PREP(x) ((({{ f.ty }})(x) << {{ f.name }}_SHIFT) & {{ f.name }}_MASK)
{%- for v in f.values %}
#define {{ v.name }} {{ v.value }}{% if v.comment %} /* {{ v.comment }} */{% endif %}
{%- endfor %}
{%- endfor %}
{% endfor %}
#endif /* {{ guard }} */
