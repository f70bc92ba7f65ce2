; Feature-dense task for tests/semantics_agree.rs: a transitive closure
; as a recursive derived predicate, its negation in a precondition,
; equality and a constant inside derived bodies, a derived predicate over
; another one's negation (two strata), and effects that open and close
; edges the closure runs over.
(define (domain closure)
  (:requirements :adl :derived-predicates)
  (:types node)
  (:constants root - node)
  (:predicates (edge ?a ?b - node) (reach ?a ?b - node) (isolated ?n - node)
               (cut ?a ?b - node) (rooted ?n - node) (tagged ?n - node))
  (:derived (reach ?a ?b - node)
    (or (and (edge ?a ?b) (not (cut ?a ?b)))
        (exists (?c - node) (and (reach ?a ?c) (reach ?c ?b)))))
  (:derived (rooted ?n - node) (or (= ?n root) (reach root ?n)))
  (:derived (isolated ?n - node) (and (not (rooted ?n)) (not (= ?n root))))
  (:action connect
    :parameters (?a ?b - node)
    :precondition (and (not (= ?a ?b)) (not (reach ?a ?b)) (rooted ?a))
    :effect (and (edge ?a ?b) (not (cut ?a ?b))))
  (:action sever
    :parameters (?a ?b - node)
    :precondition (and (edge ?a ?b) (not (cut ?a ?b)))
    :effect (and (cut ?a ?b) (forall (?c - node) (when (isolated ?c) (tagged ?c)))))
  (:action tag
    :parameters (?n - node)
    :precondition (and (isolated ?n) (not (tagged ?n)))
    :effect (tagged ?n)))
