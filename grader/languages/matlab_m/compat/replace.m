function s = replace(str, old, new)
% MATLAB's replace (R2016b): strrep for one or several old/new pairs.
  if ~iscell(old)
    old = {old};
  end
  if ~iscell(new)
    new = repmat({new}, size(old));
  end
  s = str;
  for k = 1:numel(old)
    s = strrep(s, old{k}, new{k});
  end
end
