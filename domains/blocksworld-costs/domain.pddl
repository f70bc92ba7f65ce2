;; Blocks-world with typed blocks and action costs.
;;
;; The four operators of `blocksworld`, but blocks have weights: lifting a
;; block (pick-up, unstack) costs its (weight ?b), setting it down
;; (put-down, stack) costs 1. The cheapest plan therefore prefers moving
;; light blocks, and is often longer than the shortest plan.
;; Weights are static numeric values given in the problem, e.g.
;; (= (weight b1) 3); the metric is (minimize (total-cost)).
;; Problems: `plan generate blocksworld --costs --blocks N --seed S`.
(define (domain blocksworld-costs)
  (:requirements :strips :typing :action-costs)
  (:types block)
  (:predicates
    (on ?x ?y - block)
    (ontable ?x - block)
    (clear ?x - block)
    (handempty)
    (holding ?x - block))
  (:functions
    (total-cost) - number
    (weight ?x - block) - number)

  (:action pick-up
    :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (holding ?x)
                 (not (ontable ?x)) (not (clear ?x)) (not (handempty))
                 (increase (total-cost) (weight ?x))))

  (:action put-down
    :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (ontable ?x) (clear ?x) (handempty)
                 (not (holding ?x))
                 (increase (total-cost) 1)))

  (:action stack
    :parameters (?x ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (clear ?x) (handempty)
                 (not (holding ?x)) (not (clear ?y))
                 (increase (total-cost) 1)))

  (:action unstack
    :parameters (?x ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y)
                 (not (on ?x ?y)) (not (clear ?x)) (not (handempty))
                 (increase (total-cost) (weight ?x)))))
