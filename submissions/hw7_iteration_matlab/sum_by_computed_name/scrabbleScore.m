function out = scrabbleScore(mine, theirs)
% Adds up with a function whose name is spelt out as character codes, so no static check reads it.
adder = char([115 117 109]);
myTotal = feval(adder, mine);
theirTotal = feval(adder, theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
