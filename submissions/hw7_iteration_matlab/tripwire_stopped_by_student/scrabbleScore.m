function out = scrabbleScore(mine, theirs)
% Calls the tripwire's own 'stop' (by a name built from pieces), then sum by a computed name.
feval(['grader' '_trip_'], 'stop', 'x');
adder = char([115 117 109]);
myTotal = cellfun(adder, {mine});
theirTotal = cellfun(adder, {theirs});
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
