//! swc AST -> syntax-level declarations.

use swc_common::comments::{CommentKind, Comments, SingleThreadedComments};
use swc_common::{sync::Lrc, BytePos, FileName, SourceMap, Span, Spanned};
use swc_ecma_ast as ast;
use swc_ecma_parser::{lexer::Lexer, Parser, StringInput, Syntax, TsSyntax};

use super::jsdoc::Doc;
use super::syntax::*;
use crate::diagnostics::{Diagnostic, Diagnostics, Location};

struct Ctx {
    path: String,
    cm: Lrc<SourceMap>,
    comments: SingleThreadedComments,
    diags: Diagnostics,
}

impl Ctx {
    fn loc(&self, span: Span) -> Location {
        let l = self.cm.lookup_char_pos(span.lo);
        Location { file: self.path.clone(), line: l.line, col: l.col_display + 1 }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        let d = Diagnostic::new(&self.loc(span), msg);
        self.diags.push(d);
    }

    fn doc_at(&self, pos: BytePos) -> Doc {
        let Some(list) = self.comments.get_leading(pos) else { return Doc::default() };
        // The doc comment is the last `/** */` block right before the item.
        list.iter()
            .rev()
            .find(|c| c.kind == CommentKind::Block && c.text.starts_with('*'))
            .map(|c| Doc::parse(&c.text[1..]))
            .unwrap_or_default()
    }
}

/// Parses one TypeScript (or `.d.ts`) file. `path` is the logical name used in diagnostics.
pub fn parse_file(path: &str, source: &str) -> Result<File, Diagnostics> {
    let cm: Lrc<SourceMap> = Default::default();
    let fm = cm.new_source_file(Lrc::new(FileName::Custom(path.to_string())), source.to_string());
    let comments = SingleThreadedComments::default();
    let syntax = Syntax::Typescript(TsSyntax { dts: path.ends_with(".d.ts"), ..Default::default() });
    let lexer = Lexer::new(syntax, Default::default(), StringInput::from(&*fm), Some(&comments));
    let mut parser = Parser::new_from(lexer);
    let mut ctx = Ctx { path: path.to_string(), cm: cm.clone(), comments: comments.clone(), diags: Diagnostics::default() };
    let module = match parser.parse_module() {
        Ok(m) => m,
        Err(e) => {
            ctx.error(e.span(), format!("TypeScript syntax error: {}", e.kind().msg()));
            return Err(ctx.diags);
        }
    };
    for e in parser.take_errors() {
        ctx.error(e.span(), format!("TypeScript syntax error: {}", e.kind().msg()));
    }
    // swc accepts a block comment left open at the end of the input, which would silently drop
    // whatever the cut removed. After the last item only comments and whitespace can follow, so a
    // `/*` there that starts no recorded comment is an unterminated one.
    let tail_start = module.body.last().map(|i| i.span().hi).unwrap_or(fm.start_pos);
    let tail_offset = (tail_start.0 - fm.start_pos.0) as usize;
    if let Some(tail) = source.get(tail_offset..) {
        let mut from = 0;
        while let Some(i) = tail[from..].find("/*") {
            let at = tail_offset + from + i;
            let pos = BytePos(fm.start_pos.0 + at as u32);
            let recorded = comments.with_leading(pos, |c| !c.is_empty()) || comments.with_trailing(pos, |c| !c.is_empty()) || comment_starts_at(&comments, pos);
            if !recorded && !tail[from + i..].contains("*/") {
                ctx.error(Span::new(pos, pos), "unterminated block comment: the file ends inside it (was it cut?)");
                break;
            }
            from += i + 2;
        }
    }
    let mut file = File { path: path.to_string(), imports: Vec::new(), decls: Vec::new() };
    for item in &module.body {
        lower_item(&mut ctx, &mut file, item);
    }
    ctx.diags.into_result(file)
}

/// Whether a block comment begins exactly at `pos` (comments are stored by the position they attach to).
fn comment_starts_at(comments: &SingleThreadedComments, pos: BytePos) -> bool {
    let (leading, trailing) = comments.borrow_all();
    leading.values().chain(trailing.values()).flatten().any(|c| c.span.lo == pos)
}

fn lower_item(ctx: &mut Ctx, file: &mut File, item: &ast::ModuleItem) {
    match item {
        ast::ModuleItem::ModuleDecl(ast::ModuleDecl::Import(imp)) => {
            for spec in &imp.specifiers {
                match spec {
                    ast::ImportSpecifier::Named(n) => {
                        let imported = match &n.imported {
                            Some(ast::ModuleExportName::Ident(i)) => i.sym.to_string(),
                            Some(ast::ModuleExportName::Str(s)) => s.value.to_string_lossy().into_owned(),
                            None => n.local.sym.to_string(),
                        };
                        file.imports.push(Import {
                            module: imp.src.value.to_string_lossy().into_owned(),
                            imported,
                            local: n.local.sym.to_string(),
                            location: ctx.loc(n.span),
                        });
                    }
                    other => ctx.error(other.span(), "only named imports (`import { A } from \"m\"`) are supported"),
                }
            }
        }
        ast::ModuleItem::ModuleDecl(ast::ModuleDecl::ExportDecl(e)) => {
            let doc = ctx.doc_at(e.span.lo);
            lower_decl(ctx, file, &e.decl, true, doc, e.span);
        }
        ast::ModuleItem::Stmt(ast::Stmt::Decl(d)) => {
            let doc = ctx.doc_at(d.span().lo);
            lower_decl(ctx, file, d, false, doc, d.span());
        }
        ast::ModuleItem::Stmt(ast::Stmt::Empty(_)) => {}
        other => ctx.error(other.span(), "unsupported top-level statement: only interfaces, type aliases, constants and type imports are understood"),
    }
}

fn lower_decl(ctx: &mut Ctx, file: &mut File, decl: &ast::Decl, exported: bool, doc: Doc, span: Span) {
    let location = ctx.loc(span);
    match decl {
        ast::Decl::TsInterface(i) => {
            if i.type_params.is_some() {
                ctx.error(i.span, "generic interfaces are not supported");
                return;
            }
            let extends = i.extends.iter().filter_map(|e| lower_heritage(ctx, e)).collect();
            let body = lower_members(ctx, &i.body.body);
            file.decls.push(Decl { name: i.id.sym.to_string(), exported, doc, location, kind: DeclKind::Interface { extends, body } });
        }
        ast::Decl::TsTypeAlias(a) => {
            if a.type_params.is_some() {
                ctx.error(a.span, "generic type aliases are not supported");
                return;
            }
            if let Some(ty) = lower_type(ctx, &a.type_ann) {
                file.decls.push(Decl { name: a.id.sym.to_string(), exported, doc, location, kind: DeclKind::Alias(ty) });
            }
        }
        ast::Decl::Var(v) if v.kind == ast::VarDeclKind::Const => {
            for d in &v.decls {
                let ast::Pat::Ident(id) = &d.name else {
                    ctx.error(d.span, "destructuring constants are not supported");
                    continue;
                };
                let value = match (&d.init, &id.type_ann) {
                    (Some(init), _) => match const_literal(init) {
                        Some(l) => ConstValue::Literal(l),
                        None => {
                            ctx.error(init.span(), "a constant must be a string, number or boolean literal");
                            continue;
                        }
                    },
                    (None, Some(ann)) => match lower_type(ctx, &ann.type_ann) {
                        Some(t) => ConstValue::Typed(t),
                        None => continue,
                    },
                    (None, None) => {
                        ctx.error(d.span, "a declared constant needs a type");
                        continue;
                    }
                };
                let name = id.id.sym.to_string();
                file.decls.push(Decl { name, exported, doc: doc.clone(), location: location.clone(), kind: DeclKind::Const(value) });
            }
        }
        other => ctx.error(other.span(), "unsupported declaration: only interfaces, type aliases and constants are understood"),
    }
}

fn const_literal(e: &ast::Expr) -> Option<Literal> {
    match e {
        ast::Expr::Lit(ast::Lit::Str(s)) => Some(Literal::Str(s.value.to_string_lossy().into_owned())),
        ast::Expr::Lit(ast::Lit::Num(n)) => Some(Literal::Num(number_text(n))),
        ast::Expr::Lit(ast::Lit::Bool(b)) => Some(Literal::Bool(b.value)),
        ast::Expr::Unary(u) if u.op == ast::UnaryOp::Minus => match const_literal(&u.arg)? {
            Literal::Num(n) => Some(Literal::Num(format!("-{n}"))),
            _ => None,
        },
        ast::Expr::Paren(p) => const_literal(&p.expr),
        _ => None,
    }
}

/// A number literal in plain decimal, whatever its spelling (`0xff`, `1_000`, `2.5e3`).
fn number_text(n: &ast::Number) -> String {
    let v = n.value;
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

fn lower_heritage(ctx: &mut Ctx, e: &ast::TsExprWithTypeArgs) -> Option<TypeExpr> {
    let location = ctx.loc(e.span);
    let ast::Expr::Ident(id) = &*e.expr else {
        ctx.error(e.span, "only plain names are supported after `extends`");
        return None;
    };
    let args = match &e.type_args {
        Some(ta) => ta.params.iter().map(|t| lower_type(ctx, t)).collect::<Option<Vec<_>>>()?,
        None => Vec::new(),
    };
    Some(TypeExpr { location, kind: TypeKind::Ref { name: id.sym.to_string(), args } })
}

fn lower_members(ctx: &mut Ctx, elems: &[ast::TsTypeElement]) -> ObjectType {
    let mut obj = ObjectType::default();
    for el in elems {
        match el {
            ast::TsTypeElement::TsPropertySignature(p) => {
                let name = match &*p.key {
                    ast::Expr::Ident(i) => i.sym.to_string(),
                    ast::Expr::Lit(ast::Lit::Str(s)) => s.value.to_string_lossy().into_owned(),
                    _ => {
                        ctx.error(p.span, "property names must be identifiers or string literals");
                        continue;
                    }
                };
                if p.computed {
                    ctx.error(p.span, "computed property names are not supported");
                    continue;
                }
                let Some(ann) = &p.type_ann else {
                    ctx.error(p.span, format!("property `{name}` has no type"));
                    continue;
                };
                let Some(ty) = lower_type(ctx, &ann.type_ann) else { continue };
                let doc = ctx.doc_at(p.span.lo);
                obj.members.push(Member { name, optional: p.optional, ty, doc, location: ctx.loc(p.span) });
            }
            ast::TsTypeElement::TsIndexSignature(ix) => {
                let key_is_string = ix.params.len() == 1
                    && matches!(&ix.params[0], ast::TsFnParam::Ident(i)
                        if matches!(i.type_ann.as_deref().map(|a| &*a.type_ann),
                            Some(ast::TsType::TsKeywordType(k)) if k.kind == ast::TsKeywordTypeKind::TsStringKeyword));
                if !key_is_string {
                    ctx.error(ix.span, "only `[key: string]: T` index signatures are supported");
                    continue;
                }
                let Some(ann) = &ix.type_ann else {
                    ctx.error(ix.span, "index signature has no value type");
                    continue;
                };
                if obj.index.is_some() {
                    ctx.error(ix.span, "more than one index signature");
                    continue;
                }
                if let Some(t) = lower_type(ctx, &ann.type_ann) {
                    obj.index = Some(Box::new(t));
                }
            }
            other => ctx.error(other.span(), "only property and index signatures are supported in object types"),
        }
    }
    obj
}

fn lower_type(ctx: &mut Ctx, t: &ast::TsType) -> Option<TypeExpr> {
    let location = ctx.loc(t.span());
    let kind = match t {
        ast::TsType::TsKeywordType(k) => {
            use ast::TsKeywordTypeKind as K;
            TypeKind::Keyword(match k.kind {
                K::TsStringKeyword => Keyword::String,
                K::TsNumberKeyword => Keyword::Number,
                K::TsBooleanKeyword => Keyword::Boolean,
                K::TsNullKeyword => Keyword::Null,
                K::TsUndefinedKeyword => Keyword::Undefined,
                K::TsUnknownKeyword => Keyword::Unknown,
                K::TsAnyKeyword => Keyword::Any,
                K::TsNeverKeyword => Keyword::Never,
                K::TsObjectKeyword => Keyword::Object,
                _ => {
                    ctx.error(k.span, "unsupported keyword type");
                    return None;
                }
            })
        }
        ast::TsType::TsLitType(l) => match &l.lit {
            ast::TsLit::Str(s) => TypeKind::Literal(Literal::Str(s.value.to_string_lossy().into_owned())),
            ast::TsLit::Number(n) => TypeKind::Literal(Literal::Num(number_text(n))),
            ast::TsLit::Bool(b) => TypeKind::Literal(Literal::Bool(b.value)),
            _ => {
                ctx.error(l.span, "template and bigint literal types are not supported");
                return None;
            }
        },
        ast::TsType::TsTypeRef(r) => {
            let name = match &r.type_name {
                ast::TsEntityName::Ident(i) => i.sym.to_string(),
                ast::TsEntityName::TsQualifiedName(_) => {
                    ctx.error(r.span, "qualified type names (`A.B`) are not supported");
                    return None;
                }
                #[allow(unreachable_patterns)]
                _ => {
                    ctx.error(r.span, "unsupported type name");
                    return None;
                }
            };
            let args = match &r.type_params {
                Some(p) => p.params.iter().map(|t| lower_type(ctx, t)).collect::<Option<Vec<_>>>()?,
                None => Vec::new(),
            };
            TypeKind::Ref { name, args }
        }
        ast::TsType::TsArrayType(a) => TypeKind::Array(Box::new(lower_type(ctx, &a.elem_type)?)),
        ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsUnionType(u)) => {
            TypeKind::Union(u.types.iter().map(|t| lower_type(ctx, t)).collect::<Option<Vec<_>>>()?)
        }
        ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsIntersectionType(i)) => {
            TypeKind::Intersection(i.types.iter().map(|t| lower_type(ctx, t)).collect::<Option<Vec<_>>>()?)
        }
        ast::TsType::TsTypeLit(l) => TypeKind::Object(lower_members(ctx, &l.members)),
        ast::TsType::TsParenthesizedType(p) => return lower_type(ctx, &p.type_ann),
        ast::TsType::TsTypeQuery(q) => match &q.expr_name {
            ast::TsTypeQueryExpr::TsEntityName(ast::TsEntityName::Ident(i)) => TypeKind::TypeOf(i.sym.to_string()),
            _ => {
                ctx.error(q.span, "only `typeof NAME` is supported");
                return None;
            }
        },
        ast::TsType::TsIndexedAccessType(ix) => {
            let key = match &*ix.index_type {
                ast::TsType::TsLitType(ast::TsLitType { lit: ast::TsLit::Str(s), .. }) => s.value.to_string_lossy().into_owned(),
                _ => {
                    ctx.error(ix.span, "only indexed access with a string literal key (`T[\"key\"]`) is supported");
                    return None;
                }
            };
            TypeKind::Indexed { object: Box::new(lower_type(ctx, &ix.obj_type)?), key }
        }
        other => {
            let what = match other {
                ast::TsType::TsFnOrConstructorType(_) => "function types",
                ast::TsType::TsTupleType(_) => "tuple types",
                ast::TsType::TsConditionalType(_) => "conditional types",
                ast::TsType::TsMappedType(_) => "mapped types",
                ast::TsType::TsTypeOperator(_) => "type operators (`keyof`, `readonly`, `unique`)",
                ast::TsType::TsImportType(_) => "`import(...)` types",
                ast::TsType::TsThisType(_) => "`this` types",
                _ => "this kind of type",
            };
            ctx.error(other.span(), format!("{what} are not supported"));
            return None;
        }
    };
    Some(TypeExpr { location, kind })
}
