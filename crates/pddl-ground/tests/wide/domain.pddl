; One action with 6^5 = 7 776 bindings, each with a quantified conditional
; effect over 6 objects: enough work for grounding to ask its stop
; condition many times in every phase (reachability, instantiation and
; the phases that finish the task). `unmark` keeps `p` from being static,
; so the effects' conditions stay. Used by tests/handcrafted.rs and the
; unit tests of src/finish.rs.
(define (domain wide)
  (:requirements :strips :conditional-effects)
  (:predicates (p ?x) (q ?a ?b ?c ?d ?e) (r ?a ?x))
  (:action join
    :parameters (?a ?b ?c ?d ?e)
    :precondition (and (p ?a) (p ?b) (p ?c) (p ?d) (p ?e))
    :effect (and (q ?a ?b ?c ?d ?e)
                 (forall (?x) (when (p ?x) (r ?a ?x)))))
  (:action unmark
    :parameters (?x)
    :precondition (p ?x)
    :effect (not (p ?x))))
