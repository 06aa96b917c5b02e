//! Rewrites every multi-line `#[doc]` attribute as one attribute per line with a leading space, so
//! the formatted output has `/// text` lines rather than `/** */` blocks.
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

pub fn normalize(file: &mut syn::File) {
    DocLines.visit_file_mut(file);
}

struct DocLines;

fn split(attrs: &mut Vec<Attribute>) {
    let mut out = Vec::with_capacity(attrs.len());
    for attr in attrs.drain(..) {
        let text = match &attr.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        };
        let Some(text) = text else {
            out.push(attr);
            continue;
        };
        for line in text.lines() {
            let mut a = attr.clone();
            let line = if line.is_empty() || line.starts_with(' ') {
                line.to_string()
            } else {
                format!(" {line}")
            };
            if let Meta::NameValue(nv) = &mut a.meta {
                nv.value = Expr::Lit(ExprLit {
                    attrs: Vec::new(),
                    lit: Lit::Str(LitStr::new(&line, proc_macro2::Span::call_site())),
                });
            }
            out.push(a);
        }
    }
    *attrs = out;
}

macro_rules! split_in {
    ($($method:ident($ty:ty) => $walk:path;)*) => {
        $(fn $method(&mut self, node: &mut $ty) {
            split(&mut node.attrs);
            $walk(self, node);
        })*
    };
}

impl VisitMut for DocLines {
    split_in! {
        visit_file_mut(syn::File) => visit_mut::visit_file_mut;
        visit_item_struct_mut(syn::ItemStruct) => visit_mut::visit_item_struct_mut;
        visit_item_enum_mut(syn::ItemEnum) => visit_mut::visit_item_enum_mut;
        visit_item_impl_mut(syn::ItemImpl) => visit_mut::visit_item_impl_mut;
        visit_item_mod_mut(syn::ItemMod) => visit_mut::visit_item_mod_mut;
        visit_item_const_mut(syn::ItemConst) => visit_mut::visit_item_const_mut;
        visit_item_static_mut(syn::ItemStatic) => visit_mut::visit_item_static_mut;
        visit_item_fn_mut(syn::ItemFn) => visit_mut::visit_item_fn_mut;
        visit_impl_item_fn_mut(syn::ImplItemFn) => visit_mut::visit_impl_item_fn_mut;
        visit_impl_item_const_mut(syn::ImplItemConst) => visit_mut::visit_impl_item_const_mut;
        visit_variant_mut(syn::Variant) => visit_mut::visit_variant_mut;
        visit_field_mut(syn::Field) => visit_mut::visit_field_mut;
    }
}
